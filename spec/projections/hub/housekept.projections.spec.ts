// Housekeeping removes a notification from the read side (docs/hub.md#housekeeping): every hub projection
// that keeps rows of a notification deletes them all when it applies NotificationHousekept, whatever the
// earlier events left, so a rebuild (every event applied again from the start, here on a new generation)
// ends without them too; another notification's rows stay.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { RecordedEvent } from '../../../domain/core/event.ts';
import type { ReadStore } from '../../../infra/core/read-store.port.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { ensureGeneration } from '../../../projections/core/checkpoints.ts';
import type { Projection } from '../../../projections/core/projection.ts';
import { projectionStore } from '../../../projections/core/projection-store.ts';
import { alertsProjection } from '../../../projections/hub/alerts.projection.ts';
import { dispatchProjection } from '../../../projections/hub/dispatch.projection.ts';
import { snapshotsProjection } from '../../../projections/hub/snapshots.projection.ts';
import { sweepProjection } from '../../../projections/hub/sweep.projection.ts';
import { acceptedEvent, NID, T0 } from '../../domain/hub/notification-fixtures.ts';

const test = suite('hub projections: a housekept notification leaves no row');
let dir: string;
let store: ReadStore;
let position = 0;
/** every hub projection that keeps rows per notification, with its collections */
const PROJECTIONS: Array<[Projection, string[]]> = [
  [dispatchProjection, ['due']],
  [sweepProjection, ['open', 'expiries']],
  [snapshotsProjection, ['uses']],
  [alertsProjection, ['outbox']],
];

const recorded = (e: { type: string; data: unknown }, stream: string): RecordedEvent =>
  ({
    id: `e${++position}`,
    type: e.type,
    data: e.data,
    stream,
    revision: 0,
    position: String(position).padStart(20, '0'),
    metadata: { tenant: 'acme', occurredAt: T0, schemaVersion: 1 },
  }) as RecordedEvent;

/** a notification's events (accepted with an ExpiresAt and open work, an alert), under its own id */
function notification(id: string, housekept: boolean): RecordedEvent[] {
  const accepted = JSON.parse(
    JSON.stringify(acceptedEvent({ expiresAt: '2026-03-09T00:00:00.000Z' })).replaceAll(NID, id),
  );
  const stream = `hubNotification-acme.${id}`;
  return [
    recorded(accepted, stream),
    recorded(
      {
        type: 'AlertRaised',
        data: { MessageId: `${id}.m1`, Classification: 'DEFINITE_FINAL_FAILURE', Reason: 'r', At: T0 },
      },
      stream,
    ),
    ...(housekept
      ? [
          recorded(
            { type: 'NotificationHousekept', data: { NotificationId: id, ArchivedTo: 'archive/x.jsonl', At: T0 } },
            stream,
          ),
        ]
      : []),
  ];
}

/** the rows of every collection, as `<projection>.<collection> <stream or id>` */
async function rows(generation: number): Promise<string[]> {
  const out: string[] = [];
  for (const [projection, collections] of PROJECTIONS) {
    for (const name of collections) {
      for (const doc of await store
        .collection<{ id: string; stream?: string; NotificationId?: string }>(
          `${projection.name}__${name}__g${generation}`,
        )
        .find({})) {
        out.push(`${projection.name}.${name} ${doc.stream ?? doc.NotificationId ?? doc.id}`);
      }
    }
  }
  return out.sort();
}

async function applyAll(events: RecordedEvent[], generation: number) {
  for (const [projection] of PROJECTIONS) {
    await ensureGeneration(store, projection, generation);
    const mine = events.filter((e) => projection.eventTypes!.includes(e.type));
    await store.transaction((tx) => projection.apply(mine, projectionStore(tx, projection, generation)));
  }
}

test.before.each(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'hub-housekept-proj-'));
  store = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
});
test.after.each(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const GONE = '11111111-1111-4111-8111-111111111111';
const KEPT = '22222222-2222-4222-8222-222222222222';
const keptRows = [
  `hub.alerts.outbox hubNotification-acme.${KEPT}`,
  `hub.dispatch.due hubNotification-acme.${KEPT}`,
  `hub.snapshots.uses ${KEPT}`,
  `hub.sweep.expiries hubNotification-acme.${KEPT}`,
  `hub.sweep.open hubNotification-acme.${KEPT}`,
];

test('before housekeeping each notification has a row in every collection', async () => {
  await applyAll([...notification(GONE, false), ...notification(KEPT, false)], 1);
  const all = await rows(1);
  for (const r of keptRows) assert.ok(all.includes(r), r);
  for (const r of keptRows) assert.ok(all.includes(r.replace(KEPT, GONE).replace(KEPT, GONE)), r.replace(KEPT, GONE));
});

test('applied live, NotificationHousekept deletes every row of its notification and no other', async () => {
  const gone = notification(GONE, true);
  await applyAll([...gone.slice(0, 2), ...notification(KEPT, false)], 1);
  await applyAll(gone.slice(2), 1);
  assert.equal(await rows(1), keptRows);
});

test('a rebuild (every event again, a new generation) ends without them too', async () => {
  await applyAll([...notification(GONE, true), ...notification(KEPT, false)], 2);
  assert.equal(await rows(2), keptRows);
});

test.run();
