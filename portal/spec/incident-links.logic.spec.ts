// The incident view's links, as plain functions: every id a timeline row names opens its page in the area
// that owns it, with the scope that area needs: the hub's notification, message, snapshot and configuration
// streams, the hub's dead-letter alert on the bridge (its notification and message), and the other services'.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BRIDGE_ADMIN_SCOPE } from '../../domain/bridge/bridge.scopes.ts';
import { HUB_ADMIN_SCOPE } from '../../domain/hub/hub.scopes.ts';
import { ALERT_SOURCE } from '../../domain/hub/hub-alerts.constants.ts';
import { linksOf } from '../src/areas/operations/incident-links.ts';
import type { TimelineRow } from '../src/areas/operations/operations.types.ts';

const row = (category: string, stream: string, type: string, data: unknown): TimelineRow =>
  ({ category, stream, type, data, service: 'hub', revision: 0 }) as unknown as TimelineRow;
const to = (r: TimelineRow) => linksOf(r).map((l) => [l.to, l.search ?? null, l.scope]);

test('a notification event opens the notification, the message and the snapshot it names', () => {
  assert.equal(
    to(row('hubNotification', 'hubNotification-demo.N-1', 'AttemptStarted', { MessageId: 'M-1', SnapshotId: 'S/1' })),
    [
      ['/hub/notifications/N-1', null, HUB_ADMIN_SCOPE],
      ['/hub/messages/M-1', null, HUB_ADMIN_SCOPE],
      ['/hub/snapshots/S%2F1', null, HUB_ADMIN_SCOPE],
    ],
  );
});

test('the dead-letter alert on the bridge opens its trace, the notification and the message; another event only its trace', () => {
  const alert = { event: { source: ALERT_SOURCE, data: { NotificationId: 'N-1', MessageId: 'M-1' } } };
  assert.equal(to(row('published', 'published-demo.k1', 'EventAccepted', alert)), [
    ['/bridge/trace/k1', null, BRIDGE_ADMIN_SCOPE],
    ['/hub/notifications/N-1', null, HUB_ADMIN_SCOPE],
    ['/hub/messages/M-1', null, HUB_ADMIN_SCOPE],
  ]);
  const other = { event: { source: 'policy-system', data: { NotificationId: 'N-1' } } };
  assert.equal(to(row('published', 'published-demo.k2', 'EventAccepted', other)), [
    ['/bridge/trace/k2', null, BRIDGE_ADMIN_SCOPE],
  ]);
});

test('the configuration streams open their pages; a preference opens its recipient’s', () => {
  assert.equal(to(row('hubSnapshot', 'hubSnapshot-demo.snap-1', 'SnapshotCaptured', {})), [
    ['/hub/snapshots/snap-1', null, HUB_ADMIN_SCOPE],
  ]);
  assert.equal(
    to(row('hubDefinition', 'hubDefinition-demo.claim-paid', 'DefinitionCreated', { DefinitionId: 'D-1' })),
    [['/hub/definitions/D-1', null, HUB_ADMIN_SCOPE]],
  );
  assert.equal(to(row('hubTemplate', 'hubTemplate-demo.T-1', 'TemplateCreated', {}))[0]?.[0], '/hub/templates/T-1');
  assert.equal(
    to(row('hubService', 'hubService-demo.svc', 'ServiceCreated', {}))[0]?.[0],
    '/hub/delivery-services/svc',
  );
  assert.equal(
    to(row('hubContext', 'hubContext-demo.ctx', 'ContextCreated', {}))[0]?.[0],
    '/hub/context-definitions/ctx',
  );
  assert.equal(to(row('hubChannel', 'hubChannel-demo.EMAIL', 'ChannelCreated', {}))[0]?.[0], '/hub/channels');
  assert.equal(to(row('hubPreference', 'hubPreference-demo.x', 'PreferenceSet', { RecipientId: 'C-7' })), [
    ['/hub/preferences', { RecipientId: 'C-7' }, HUB_ADMIN_SCOPE],
  ]);
  assert.equal(to(row('hubQuietHours', 'hubQuietHours-demo.windows', 'QuietHoursSet', {}))[0]?.[0], '/hub/quiet-hours');
  assert.equal(to(row('hubFrequencyCaps', 'hubFrequencyCaps-demo.caps', 'CapSet', {}))[0]?.[0], '/hub/caps');
});

test('the other services keep their links: a rule, a dead letter, an audit record', () => {
  assert.equal(to(row('rule', 'rule-demo.r1', 'RuleCreated', {}))[0]?.[0], '/bridge/rules/r1');
  assert.equal(
    to(
      row('delivery', 'delivery-demo.d', 'DeliveryDeadLettered', { ruleId: 'r1', targetId: 't1', deliveryId: 'd1' }),
    ).map((l) => l[0]),
    ['/bridge/rules/r1', '/bridge/dead-letters/r1/t1/d1'],
  );
  assert.equal(
    to(row('auditLedger', 'auditLedger-demo.x', 'RecordAppended', { id: 'a1' }))[0]?.[0],
    '/audit/records/a1',
  );
});

test.run();
