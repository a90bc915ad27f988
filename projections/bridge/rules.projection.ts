import { type BusKind, PLATFORM_TENANT, type Rule } from '../../domain/bridge/model.ts';
import { RULE_OPT_OUT_EVENT_TYPES, type RuleOptOutEvent } from '../../domain/bridge/platform-rule-opt-out.decider.ts';
import { RULE_EVENT_TYPES, type RuleEvent, type RuleView } from '../../domain/bridge/rule.decider.ts';
import { assertNever } from '../../domain/core/decider.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import type { Doc, Filter, ReadStore } from '../../infra/core/read-store.port.ts';
import type { Projection, ProjectionStore } from '../core/projection.ts';
import { readModel } from '../core/read-model.ts';

/**
 * `bridge.rules`: one document per live rule (deleted rules are removed) and one per platform-rule
 * opt-out. It feeds the rules index the router compiles its matcher from (rules-index.ts) and the admin
 * API's listings. The rule itself is kept as JSON text (`ruleJson`): patterns have arbitrary keys (`a.b`,
 * `$x`) that a document store must not interpret as paths or operators; filters use the scalar fields.
 */
export const RULES_PROJECTION = 'bridge.rules';

export type RuleDoc = Doc & {
  /** `<tenant>/<ruleId>` */
  id: string;
  tenant: string;
  ruleId: string;
  bus: string;
  busKind: BusKind;
  busOwner: string;
  name: string;
  enabled: boolean;
  platform: boolean;
  /** the Rule as JSON text */
  ruleJson: string;
  /** stream revision of the last event applied: part of the rules index version */
  revision: number;
  createdAt: string;
  updatedAt: string;
};

export type OptOutDoc = Doc & { id: string; tenant: string; ruleId: string; since: string };

const docId = (tenant: string, ruleId: string) => `${tenant}/${ruleId}`;

export const rulesProjection: Projection = {
  name: RULES_PROJECTION,
  version: 1,
  categories: ['rule', 'ruleOptOut'],
  eventTypes: [...RULE_EVENT_TYPES, ...RULE_OPT_OUT_EVENT_TYPES],
  collections: {
    rules: {
      indexes: [
        { name: 'by_bus', fields: { bus: 1, enabled: 1 } },
        { name: 'by_tenant', fields: { tenant: 1, createdAt: 1 } },
      ],
    },
    optOuts: { indexes: [{ name: 'by_tenant', fields: { tenant: 1 } }] },
  },
  async apply(events, store) {
    for (const e of events) await applyOne(store, e);
  },
};

async function applyOne(store: ProjectionStore, recorded: RecordedEvent): Promise<void> {
  const rules = store.collection<RuleDoc>('rules');
  const event = recorded as unknown as RuleEvent | RuleOptOutEvent;
  switch (event.type) {
    case 'RuleCreated': {
      const { rule, busKind, busOwner, createdAt } = event.data;
      await rules.upsert({
        id: docId(rule.tenant, rule.ruleId),
        tenant: rule.tenant,
        ruleId: rule.ruleId,
        bus: rule.bus,
        busKind,
        busOwner,
        name: rule.name,
        enabled: rule.enabled,
        platform: rule.platform,
        ruleJson: JSON.stringify(rule),
        revision: recorded.revision,
        createdAt,
        updatedAt: createdAt,
      });
      return;
    }
    case 'RuleUpdated':
    case 'RuleEnabled':
    case 'RuleDisabled': {
      const doc = await rules.get(docId(event.data.tenant, event.data.ruleId));
      if (doc === null) return;
      const rule = JSON.parse(doc.ruleJson) as Rule;
      let updatedAt: string;
      if (event.type === 'RuleUpdated') {
        const c = event.data.changes;
        if (c.name !== undefined) rule.name = c.name;
        if (c.description === null) delete rule.description;
        else if (c.description !== undefined) rule.description = c.description;
        if (c.pattern !== undefined) rule.pattern = c.pattern;
        if (c.targets !== undefined) rule.targets = c.targets;
        updatedAt = event.data.updatedAt;
      } else {
        rule.enabled = event.type === 'RuleEnabled';
        updatedAt = event.data.at;
      }
      await rules.upsert({
        ...doc,
        name: rule.name,
        enabled: rule.enabled,
        ruleJson: JSON.stringify(rule),
        revision: recorded.revision,
        updatedAt,
      });
      return;
    }
    case 'RuleDeleted':
      await rules.delete(docId(event.data.tenant, event.data.ruleId));
      return;
    case 'PlatformRuleOptedOut': {
      const { tenant, ruleId, at } = event.data;
      await store.collection<OptOutDoc>('optOuts').upsert({ id: docId(tenant, ruleId), tenant, ruleId, since: at });
      return;
    }
    case 'PlatformRuleOptedIn':
      await store.collection<OptOutDoc>('optOuts').delete(docId(event.data.tenant, event.data.ruleId));
      return;
    default:
      return assertNever(event);
  }
}

export const ruleOfDoc = (doc: RuleDoc): RuleView => ({
  ...(JSON.parse(doc.ruleJson) as Rule),
  busKind: doc.busKind,
  busOwner: doc.busOwner,
  createdAt: doc.createdAt,
  updatedAt: doc.updatedAt,
  revision: doc.revision,
});

export type Page = { limit: number; offset: number };

/** The admin API's reads over `bridge.rules`. */
export function createRuleQueries(readStore: ReadStore) {
  const rules = readModel<RuleDoc>(readStore, RULES_PROJECTION, 'rules');
  const optOuts = readModel<OptOutDoc>(readStore, RULES_PROJECTION, 'optOuts');
  const page = async (filter: Filter, p: Page) => {
    const [docs, total] = await Promise.all([
      rules.find(filter, { sort: { createdAt: 1 }, skip: p.offset, limit: p.limit }),
      rules.count(filter),
    ]);
    return { items: docs.map(ruleOfDoc), total };
  };
  return {
    /** a tenant's own rules (platform rules are listed by platformRules) */
    list(tenant: string, o: Page & { bus?: string; enabled?: boolean }) {
      return page(
        { tenant, ...(o.bus !== undefined && { bus: o.bus }), ...(o.enabled !== undefined && { enabled: o.enabled }) },
        o,
      );
    },
    platformRules(o: Page & { bus?: string }) {
      return page({ tenant: PLATFORM_TENANT, platform: true, ...(o.bus !== undefined && { bus: o.bus }) }, o);
    },
    async optOutsOf(tenant: string): Promise<Map<string, string>> {
      const docs = await optOuts.find({ tenant });
      return new Map(docs.map((d) => [d.ruleId, d.since]));
    },
  };
}

export type RuleQueries = ReturnType<typeof createRuleQueries>;
