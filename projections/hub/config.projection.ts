import type { RecordedEvent } from '../../domain/core/event.ts';
import {
  CHANNEL_CATEGORY,
  CONFIG_EVENT_TYPES,
  CONTEXT_CATEGORY,
  TEMPLATE_CATEGORY,
} from '../../domain/hub/config.deciders.ts';
import type {
  Channel,
  ContextDefinition,
  Definition,
  DeliveryRule,
  DeliveryService,
  Template,
} from '../../domain/hub/config.model.ts';
import {
  DEFINITION_CATEGORY,
  DEFINITION_EVENT_TYPES,
  type DefinitionEvent,
} from '../../domain/hub/definition.decider.ts';
import {
  DELIVERY_SERVICE_CATEGORY,
  DELIVERY_SERVICE_EVENT_TYPES,
  type DeliveryServiceEvent,
} from '../../domain/hub/delivery-service.decider.ts';
import type { Doc, Filter, ReadStore } from '../../infra/core/read-store.port.ts';
import type { Projection, ProjectionStore } from '../core/projection.ts';
import { readModel } from '../core/read-model.ts';

/**
 * `hub.config`: the configuration listings of the admin API (channels, delivery services, templates,
 * context definitions, definitions, delivery rules), one document per live resource (`<tenant>/<id>`),
 * removed when the resource is deleted. Reads by id fold the resource's own stream instead
 * (commands/hub/config.commands.ts): these lists may lag the log by a moment. Signing secrets never get here.
 */
export const CONFIG_PROJECTION = 'hub.config';

type Row<T> = Doc & { tenant: string; resource: T; updatedAt: string };
export type ConfigKind = 'channels' | 'services' | 'templates' | 'contexts' | 'definitions' | 'rules';

export const configProjection: Projection = {
  name: CONFIG_PROJECTION,
  version: 1,
  categories: [CHANNEL_CATEGORY, TEMPLATE_CATEGORY, CONTEXT_CATEGORY, DELIVERY_SERVICE_CATEGORY, DEFINITION_CATEGORY],
  eventTypes: [...CONFIG_EVENT_TYPES, ...DELIVERY_SERVICE_EVENT_TYPES, ...DEFINITION_EVENT_TYPES],
  collections: {
    channels: { indexes: [{ name: 'by_tenant', fields: { tenant: 1 } }] },
    services: { indexes: [{ name: 'by_tenant', fields: { tenant: 1 } }] },
    templates: { indexes: [{ name: 'by_code', fields: { tenant: 1, code: 1 } }] },
    contexts: { indexes: [{ name: 'by_tenant', fields: { tenant: 1 } }] },
    definitions: { indexes: [{ name: 'by_code', fields: { tenant: 1, code: 1 } }] },
    rules: { indexes: [{ name: 'by_definition', fields: { tenant: 1, definitionId: 1 } }] },
  },
  async apply(events, store) {
    for (const e of events) await applyOne(store, e);
  },
};

async function applyOne(store: ProjectionStore, recorded: RecordedEvent): Promise<void> {
  const tenant = recorded.metadata.tenant;
  const key = (id: string) => `${tenant}/${id}`;
  const save = (kind: ConfigKind, id: string, resource: unknown, at: string, extra: Record<string, unknown> = {}) =>
    store.collection(kind).upsert({ id: key(id), tenant, resource, updatedAt: at, ...extra });
  const drop = (kind: ConfigKind, id: string) => store.collection(kind).delete(key(id));
  const e = recorded as unknown as { type: string; data: Record<string, unknown> };
  switch (e.type) {
    case 'ChannelSaved': {
      const c = e.data.Resource as Channel;
      return void (await save('channels', c.Code, c, e.data.At as string));
    }
    case 'ChannelDeleted':
      return void (await drop('channels', e.data.Id as string));
    case 'TemplateSaved': {
      const t = e.data.Resource as Template;
      return void (await save('templates', t.TemplateId, t, e.data.At as string, { code: t.TemplateCode }));
    }
    case 'TemplateDeleted':
      return void (await drop('templates', e.data.Id as string));
    case 'ContextDefinitionSaved': {
      const c = e.data.Resource as ContextDefinition;
      return void (await save('contexts', c.ContextDefinitionId, c, e.data.At as string));
    }
    case 'ContextDefinitionDeleted':
      return void (await drop('contexts', e.data.Id as string));
    default:
      break;
  }
  const s = recorded as unknown as DeliveryServiceEvent | DefinitionEvent;
  switch (s.type) {
    case 'DeliveryServiceSaved':
      return void (await save('services', s.data.Resource.ServiceId, s.data.Resource, s.data.At));
    case 'DeliveryServiceDeleted':
      return void (await drop('services', s.data.Id));
    case 'SigningSecretIssued':
      return;
    case 'DefinitionSaved':
      return void (await save('definitions', s.data.Definition.DefinitionId, s.data.Definition, s.data.At, {
        code: s.data.Definition.NotificationCode,
      }));
    case 'DefinitionDeleted': {
      await drop('definitions', s.data.DefinitionId);
      await store.collection('rules').deleteMany({ tenant, definitionId: s.data.DefinitionId });
      return;
    }
    case 'DeliveryRuleSaved':
      return void (await save('rules', s.data.Rule.RuleId, s.data.Rule, s.data.At, {
        definitionId: s.data.Rule.DefinitionId,
      }));
    case 'DeliveryRuleDeleted':
      return void (await drop('rules', s.data.RuleId));
  }
}

export type ConfigListing<T> = {
  Items: Array<T & { UpdatedAt: string }>;
  Total: number;
  PageNo: number;
  PageSize: number;
};

export function createConfigQueries(readStore: ReadStore) {
  const list = async <T>(
    kind: ConfigKind,
    tenant: string,
    extra: Filter,
    pageNo: number,
    pageSize: number,
  ): Promise<ConfigListing<T>> => {
    const model = readModel<Row<T>>(readStore, CONFIG_PROJECTION, kind);
    const filter = { tenant, ...extra };
    const [rows, total] = await Promise.all([
      model.find(filter, { sort: { id: 1 }, skip: (pageNo - 1) * pageSize, limit: pageSize }),
      model.count(filter),
    ]);
    return {
      Items: rows.map((r) => ({ ...r.resource, UpdatedAt: r.updatedAt })),
      Total: total,
      PageNo: pageNo,
      PageSize: pageSize,
    };
  };
  return {
    channels: (tenant: string, pageNo: number, pageSize: number) =>
      list<Channel>('channels', tenant, {}, pageNo, pageSize),
    services: (tenant: string, pageNo: number, pageSize: number) =>
      list<DeliveryService>('services', tenant, {}, pageNo, pageSize),
    templates: (tenant: string, code: string | undefined, pageNo: number, pageSize: number) =>
      list<Template>('templates', tenant, code === undefined ? {} : { code }, pageNo, pageSize),
    contexts: (tenant: string, pageNo: number, pageSize: number) =>
      list<ContextDefinition>('contexts', tenant, {}, pageNo, pageSize),
    definitions: (tenant: string, code: string | undefined, pageNo: number, pageSize: number) =>
      list<Definition>('definitions', tenant, code === undefined ? {} : { code }, pageNo, pageSize),
    rules: (tenant: string, definitionId: string | undefined, pageNo: number, pageSize: number) =>
      list<DeliveryRule>('rules', tenant, definitionId === undefined ? {} : { definitionId }, pageNo, pageSize),
  };
}

export type ConfigQueries = ReturnType<typeof createConfigQueries>;
