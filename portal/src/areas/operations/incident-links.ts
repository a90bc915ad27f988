import { AUDIT_READ_SCOPE } from '../../../../domain/audit/audit.scopes.ts';
import { BRIDGE_ADMIN_SCOPE } from '../../../../domain/bridge/bridge.scopes.ts';
import { IDENTITY_ADMIN_SCOPE } from '../../../../domain/identity/identity.scopes.ts';
import { WORKFLOW_USER_SCOPE } from '../../../../domain/workflow/workflow.scopes.ts';
import type { TimelineRow } from './operations.types.ts';

/** a page of another area that an id of the timeline opens, with the scope that area needs */
export type IdLink = { label: string; to: string; scope: string };

const enc = encodeURIComponent;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** `<category>-<tenant>.<id>`: the aggregate's id */
const idOf = (stream: string): string => stream.slice(stream.indexOf('.') + 1);

/**
 * The pages the ids of one event open: its aggregate's own page (a rule, an application, a user …) and the
 * pages of the ids its data names (the published event's trace, the dead letter, the audit record).
 */
export function linksOf(e: TimelineRow): IdLink[] {
  const id = idOf(e.stream);
  const data = (typeof e.data === 'object' && e.data !== null ? e.data : {}) as Record<string, unknown>;
  const out: IdLink[] = [];
  const bridge = (label: string, to: string) => out.push({ label, to: `/bridge/${to}`, scope: BRIDGE_ADMIN_SCOPE });
  const sso = (label: string, to: string) => out.push({ label, to: `/sso/${to}`, scope: IDENTITY_ADMIN_SCOPE });
  switch (e.category) {
    case 'published':
      bridge(`event ${id}`, `trace/${enc(id)}`);
      break;
    case 'rule':
      bridge(`rule ${id}`, `rules/${enc(id)}`);
      break;
    case 'connection':
      bridge(`connection ${id}`, `connections/${enc(id)}`);
      break;
    case 'apiDestination':
      bridge(`API destination ${id}`, `api-destinations/${enc(id)}`);
      break;
    case 'bus':
      bridge(`bus ${id}`, `buses/${enc(id)}`);
      break;
    case 'schema':
      bridge(`schema ${id}`, `schemas/${enc(id)}`);
      break;
    case 'client':
      sso(`application ${id}`, `applications/${enc(id)}`);
      break;
    case 'user':
      sso(`user ${id}`, `users/${enc(id)}`);
      break;
    case 'tenant':
      sso(`tenant ${id}`, `tenants/${enc(id)}`);
      break;
    case 'wfInstance':
      // one stream per root instance: its page shows the called instances too
      out.push({ label: `process instance ${id}`, to: `/workflow/instances/${enc(id)}`, scope: WORKFLOW_USER_SCOPE });
      break;
    case 'auditLedger': {
      const record = str(data.id);
      if (record !== undefined)
        out.push({ label: `audit record ${record}`, to: `/audit/records/${enc(record)}`, scope: AUDIT_READ_SCOPE });
      break;
    }
    case 'delivery': {
      const key = str(data.eventKey);
      if (key !== undefined) bridge(`event ${key}`, `trace/${enc(key)}`);
      const rule = str(data.ruleId);
      if (rule !== undefined) bridge(`rule ${rule}`, `rules/${enc(rule)}`);
      const delivery = str(data.deliveryId);
      if (e.type === 'DeliveryDeadLettered' && rule !== undefined && delivery !== undefined)
        bridge(`dead letter ${delivery}`, `dead-letters/${enc(rule)}/${String(data.targetId)}/${enc(delivery)}`);
      break;
    }
    default: {
      // other aggregates name a rule or an application in their data
      const rule = str(data.ruleId);
      if (rule !== undefined) bridge(`rule ${rule}`, `rules/${enc(rule)}`);
      const client = str(data.clientId);
      if (client !== undefined) sso(`application ${client}`, `applications/${enc(client)}`);
    }
  }
  return out;
}
