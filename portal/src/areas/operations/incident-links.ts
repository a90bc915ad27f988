import { AUDIT_READ_SCOPE } from '../../../../domain/audit/audit.scopes.ts';
import { BRIDGE_ADMIN_SCOPE } from '../../../../domain/bridge/bridge.scopes.ts';
import { HUB_ADMIN_SCOPE } from '../../../../domain/hub/hub.scopes.ts';
import { ALERT_SOURCE } from '../../../../domain/hub/hub-alerts.constants.ts';
import { IDENTITY_ADMIN_SCOPE } from '../../../../domain/identity/identity.scopes.ts';
import { WORKFLOW_USER_SCOPE } from '../../../../domain/workflow/workflow.scopes.ts';
import type { TimelineRow } from './operations.types.ts';

/** a page of another area that an id of the timeline opens, with the scope that area needs */
export type IdLink = { label: string; to: string; search?: Record<string, string>; scope: string };

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
  const hub = (label: string, to: string, search?: Record<string, string>) =>
    out.push({ label, to: `/hub/${to}`, ...(search !== undefined && { search }), scope: HUB_ADMIN_SCOPE });
  /** a notification's and its message's pages, from the ids a hub event (or a hub alert's data) names */
  const hubSend = (d: Record<string, unknown>) => {
    const notification = str(d.NotificationId);
    if (notification !== undefined) hub(`notification ${notification}`, `notifications/${enc(notification)}`);
    const message = str(d.MessageId);
    if (message !== undefined) hub(`message ${message}`, `messages/${enc(message)}`);
  };
  switch (e.category) {
    case 'published': {
      bridge(`event ${id}`, `trace/${enc(id)}`);
      // the hub's dead-letter alerts name the notification and the message they are about
      const event = data.event as { source?: unknown; data?: unknown } | undefined;
      if (event?.source === ALERT_SOURCE && typeof event.data === 'object' && event.data !== null)
        hubSend(event.data as Record<string, unknown>);
      break;
    }
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
    case 'hubNotification': {
      hub(`notification ${id}`, `notifications/${enc(id)}`);
      const message = str(data.MessageId);
      if (message !== undefined) hub(`message ${message}`, `messages/${enc(message)}`);
      const snapshot = str(data.SnapshotId);
      if (snapshot !== undefined) hub(`snapshot ${snapshot}`, `snapshots/${enc(snapshot)}`);
      break;
    }
    case 'hubSnapshot':
      hub(`snapshot ${id}`, `snapshots/${enc(id)}`);
      break;
    case 'hubDefinition': {
      // one stream per notification code; its events name the version
      const definition = str(data.DefinitionId);
      hub(
        `definition ${definition ?? id}`,
        definition !== undefined ? `definitions/${enc(definition)}` : 'definitions',
      );
      break;
    }
    case 'hubTemplate':
      hub(`template ${id}`, `templates/${enc(id)}`);
      break;
    case 'hubService':
      hub(`delivery service ${id}`, `delivery-services/${enc(id)}`);
      break;
    case 'hubContext':
      hub(`context definition ${id}`, `context-definitions/${enc(id)}`);
      break;
    case 'hubChannel':
      hub(`channel ${id}`, 'channels');
      break;
    case 'hubPreference': {
      const recipient = str(data.RecipientId);
      if (recipient !== undefined) hub(`preferences of ${recipient}`, 'preferences', { RecipientId: recipient });
      break;
    }
    case 'hubFrequencyCaps':
    case 'hubQuota':
      hub('frequency caps', 'caps');
      break;
    case 'hubQuietHours':
      hub('quiet hours', 'quiet-hours');
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
