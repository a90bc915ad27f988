import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DispatchProcess, DispatchStep, LoadedNotification } from '../../../commands/hub/dispatch.process.ts';
import {
  createDispatchWorker,
  createInlineDispatch,
  type DispatchDueItem,
} from '../../../commands/hub/dispatch.worker.ts';
import type { RecordedEvent } from '../../../domain/core/event.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import type { LogPage } from '../../../infra/core/event-store.port.ts';
import type { ReadStore } from '../../../infra/core/read-store.port.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { eventually } from '../../core/eventually.ts';
import { acceptedEvent as notificationAccepted, planned } from '../../domain/hub/notification-fixtures.ts';

type Ctx = { dir: string; store: ReadStore };
const test = suite<Ctx>(
  'hub inline dispatch: the acceptance state handed on, the work it started left alone by the engine',
  {} as Ctx,
);

test.before.each((ctx) => {
  ctx.dir = mkdtempSync(path.join(tmpdir(), 'inline-dispatch-'));
  ctx.store = createSqliteReadStore({ file: path.join(ctx.dir, 'read.sqlite') });
});
test.after.each(async (ctx) => {
  await ctx.store.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

const clock = manualClock('2026-11-26T10:00:00.000Z');
const DUE = '2026-11-26T09:59:59.000Z';

/** an accepted notification's state with PLANNED messages due at DUE (only what the inline dispatch reads) */
const accepted = (...ids: string[]) =>
  ({
    state: {
      status: 'accepted',
      messages: Object.fromEntries(
        ids.map((id) => [id, { MessageId: id, State: 'PLANNED', DueAt: DUE, Attempts: [] }]),
      ),
    },
    revision: 0,
    tenant: 't1',
    causationId: 'acceptance-event',
  }) as unknown as LoadedNotification;

/** a dispatch process that records its calls and answers the scripted step */
function fakeProcess(step: (messageId: string) => DispatchStep) {
  const calls: Array<{ stream: string; messageId: string; known: LoadedNotification | undefined; freshness?: string }> =
    [];
  const process = {
    async advance(stream: string, messageId: string, known?: LoadedNotification, freshness?: string) {
      calls.push({ stream, messageId, known, ...(freshness !== undefined && { freshness }) });
      return step(messageId);
    },
    async manualAttempt() {
      return 'missing' as const;
    },
  } as unknown as DispatchProcess;
  return { process, calls };
}

/** the inline runs it started have ended (what the inline dispatch reports: nothing running) */
const settled = (inline: { runningIds(): readonly string[] }) =>
  eventually(() => inline.runningIds().length === 0, 'the inline runs ended');

test('the acceptance state goes to the first step; a started attempt is remembered by message, kind and due time', async () => {
  const { process, calls } = fakeProcess((id) => (id === 'm1' ? 'submitted' : 'deferred'));
  let unstarted = 0;
  const inline = createInlineDispatch({ process, maxInFlight: 4, enabled: () => true, unstarted: () => unstarted++ });
  const state = accepted('m1', 'm2');
  inline('hubNotification-t1.n1', ['m1', 'm2'], state);
  await settled(inline);
  assert.equal(
    calls.map((c) => [c.messageId, c.known === state]),
    [
      ['m1', true],
      ['m2', true],
    ],
  );
  assert.ok(inline.started({ id: 'm1', kind: 'dispatch', dueAt: DUE }));
  assert.not.ok(
    inline.started({ id: 'm1', kind: 'dispatch', dueAt: '2026-11-26T10:05:00.000Z' }),
    'rescheduled: other work',
  );
  assert.not.ok(inline.started({ id: 'm1', kind: 'retry', dueAt: DUE }));
  assert.not.ok(inline.started({ id: 'm2', kind: 'dispatch', dueAt: DUE }), 'deferred: no attempt started');
  assert.is(inline.runningIds().length, 0);
  assert.is(unstarted, 1, 'the deferred run handed its item to the engine (a wake); the submitted one did not');
});

test('what it remembers is bounded: the oldest go first', async () => {
  const { process } = fakeProcess(() => 'submitted');
  const inline = createInlineDispatch({ process, maxInFlight: 8, enabled: () => true, remember: 2 });
  for (const id of ['a', 'b', 'c']) inline(`hubNotification-t1.${id}`, [id], accepted(id));
  await settled(inline);
  assert.equal(
    ['a', 'b', 'c'].map((id) => inline.started({ id, kind: 'dispatch', dueAt: DUE })),
    [false, true, true],
  );
});

test('the dispatch worker claims a started item and leaves it alone; other due work of the message is run', async ({
  store,
}) => {
  await store.ensureCollection('due');
  const due = store.collection<DispatchDueItem>('due');
  const base = { stream: 'hubNotification-t1.n1', tenant: 't1', leaseUntil: '' };
  const { process: inlineProcess } = fakeProcess(() => 'submitted');
  const inline = createInlineDispatch({ process: inlineProcess, maxInFlight: 4, enabled: () => true });
  inline('hubNotification-t1.n1', ['m1'], accepted('m1'));
  await settled(inline);
  const engineSide = fakeProcess(() => 'nothing');
  const worker = createDispatchWorker({
    items: async () => due,
    clock,
    process: engineSide.process,
    leaseMs: 60_000,
    inline,
  });
  await due.upsert({ ...base, id: 'm1', kind: 'dispatch', dueAt: DUE });
  assert.is(await worker.runDue(), 1);
  assert.equal(engineSide.calls, [], 'the started dispatch: nothing read, nothing called');
  assert.ok((await due.get('m1'))!.leaseUntil > clock.now().toISOString(), 'leased until the projection replaces it');
  await due.upsert({ ...base, id: 'm1', kind: 'retry', dueAt: DUE });
  assert.is(await worker.runDue(), 1);
  assert.equal(
    engineSide.calls.map((c) => [c.messageId, c.known]),
    [['m1', undefined]],
    'a retry is run, from the stream',
  );
});

/** a page of the log holding the events (only what the engine's page check reads) */
const page = (...events: Array<{ stream: string; type: string; data: unknown }>) =>
  ({ events, position: '9' }) as unknown as LogPage;
const acceptedEvent = (ids: string[], dueAt = DUE) => ({
  stream: 'hubNotification-t1.n1',
  type: 'NotificationAccepted',
  data: { Messages: ids.map((id) => ({ MessageId: id, State: 'PLANNED', DueAt: dueAt })) },
});

test('a page wakes the engine only for work due now that the inline dispatch neither runs nor has started', async ({
  store,
}) => {
  await store.ensureCollection('due');
  const due = store.collection<DispatchDueItem>('due');
  let release: () => void = () => undefined;
  const { process } = fakeProcess(
    (id) =>
      (id === 'slow'
        ? new Promise<DispatchStep>((r) => (release = () => r('submitted')))
        : 'submitted') as DispatchStep,
  );
  const inline = createInlineDispatch({ process, maxInFlight: 4, enabled: () => true });
  const worker = createDispatchWorker({ items: async () => due, clock, process, leaseMs: 60_000, inline });
  const wants = (p: LogPage) => worker.wantsPage!(p);
  inline('hubNotification-t1.n1', ['done', 'slow'], accepted('done', 'slow'));
  await eventually(() => inline.runningIds().join() === 'slow', 'the quick run ended, the slow one runs');
  assert.not.ok(wants(page(acceptedEvent(['done', 'slow']))), 'one started, one running: nothing for the engine');
  assert.ok(
    wants(page(acceptedEvent(['done', 'other']))),
    'a message the inline dispatch did not take (beyond its bound, another process): wake',
  );
  assert.not.ok(wants(page(acceptedEvent(['later'], '2026-11-26T10:05:00.000Z'))), 'due later: the poll finds it');
  assert.ok(
    wants(
      page({ stream: 'hubNotification-t1.n1', type: 'MessagePromoted', data: { MessageId: 'waiting', DueAt: DUE } }),
    ),
    'a promotion due now',
  );
  assert.not.ok(wants(page({ stream: 'bridgeBus-t1.b', type: 'NotificationAccepted', data: {} })), 'another category');
  release();
  await settled(inline);
  assert.not.ok(wants(page(acceptedEvent(['slow']))), 'the slow one has started by now');
  const without = createDispatchWorker({ items: async () => due, clock, process, leaseMs: 60_000 });
  assert.is(without.wantsPage, undefined, 'without an inline dispatch every page that feeds it wakes it');
});

/** a NotificationAccepted as a log page holds it: messages m1 (due now) and m2 of the stream */
const recordedAcceptance = (stream: string, revision = 0) =>
  ({
    ...notificationAccepted({
      messages: [planned(1, { MessageId: 'm1', DueAt: DUE }), planned(2, { MessageId: 'm2', DueAt: DUE })],
    }),
    id: `acceptance-of-${stream}`,
    stream,
    revision,
    position: '5',
    metadata: { tenant: 't1', correlationId: 'c-1', occurredAt: DUE },
  }) as unknown as RecordedEvent;

test('a claimed item starts from the acceptance a page showed, as a state that may be older, once per send; else from the stream', async ({
  store,
}) => {
  await store.ensureCollection('due');
  const due = store.collection<DispatchDueItem>('due');
  const engineSide = fakeProcess(() => 'submitted');
  const worker = createDispatchWorker({ items: async () => due, clock, process: engineSide.process, leaseMs: 60_000 });
  worker.sawPage!(page(recordedAcceptance('hubNotification-t1.n1'), recordedAcceptance('hubNotification-t1.n2', 3)));
  for (const [id, stream] of [
    ['m1', 'hubNotification-t1.n1'],
    ['m2', 'hubNotification-t1.n1'],
    ['x1', 'hubNotification-t1.n2'],
  ]) {
    await due.upsert({ id: id!, stream: stream!, tenant: 't1', kind: 'dispatch', dueAt: DUE, leaseUntil: '' });
  }
  assert.is(await worker.runDue(), 3);
  const byMessage = Object.fromEntries(engineSide.calls.map((c) => [c.messageId, c]));
  const first = byMessage.m1!;
  assert.is(first.freshness, 'maybe-older');
  assert.equal(
    [first.known?.revision, first.known?.tenant, first.known?.correlationId, first.known?.causationId],
    [0, 't1', 'c-1', 'acceptance-of-hubNotification-t1.n1'],
  );
  assert.equal(Object.keys(first.known!.state.messages), ['m1', 'm2']);
  assert.is(byMessage.m2!.known, undefined, 'the second message of the send reads the stream');
  assert.is(byMessage.x1!.known, undefined, "an acceptance that is not its stream's first event is not taken");
});

test('a remembered acceptance serves only the work it left, and only for seconds', async ({ store }) => {
  await store.ensureCollection('due');
  const due = store.collection<DispatchDueItem>('due');
  const engineSide = fakeProcess(() => 'submitted');
  const worker = createDispatchWorker({ items: async () => due, clock, process: engineSide.process, leaseMs: 60_000 });
  worker.sawPage!(page(recordedAcceptance('hubNotification-t1.r1'), recordedAcceptance('hubNotification-t1.r2')));
  await due.upsert({
    id: 'm1',
    stream: 'hubNotification-t1.r1',
    tenant: 't1',
    kind: 'retry',
    dueAt: DUE,
    leaseUntil: '',
  });
  assert.is(await worker.runDue(), 1);
  assert.is(engineSide.calls[0]!.known, undefined, 'a retry is other work than the acceptance left');
  const before = clock.now();
  clock.set(new Date(before.getTime() + 6000));
  try {
    await due.upsert({
      id: 'm1',
      stream: 'hubNotification-t1.r2',
      tenant: 't1',
      kind: 'dispatch',
      dueAt: DUE,
      leaseUntil: '',
    });
    assert.is(await worker.runDue(), 1);
    assert.is(engineSide.calls[1]!.known, undefined, 'seen 6 s before the claim: read from the stream');
  } finally {
    clock.set(before);
  }
});

test("a page's acceptance the inline dispatch has taken (all of it or one message), or with nothing due now, is not kept", async ({
  store,
}) => {
  await store.ensureCollection('due');
  const due = store.collection<DispatchDueItem>('due');
  const { process: inlineProcess } = fakeProcess(() => 'submitted');
  const inline = createInlineDispatch({ process: inlineProcess, maxInFlight: 4, enabled: () => true });
  inline('hubNotification-t1.n1', ['m1', 'm2'], accepted('m1', 'm2'));
  await settled(inline);
  const engineSide = fakeProcess(() => 'nothing');
  const worker = createDispatchWorker({
    items: async () => due,
    clock,
    process: engineSide.process,
    leaseMs: 60_000,
    inline,
  });
  const later = {
    ...recordedAcceptance('hubNotification-t1.n3'),
    data: notificationAccepted({ messages: [planned(1, { MessageId: 'm9', DueAt: '2026-11-26T11:00:00.000Z' })] }).data,
  } as RecordedEvent;
  // a send cut by the inline bound: m1 started inline (its append moves the stream on), m5 left to the engine
  const cut = {
    ...recordedAcceptance('hubNotification-t1.n5'),
    data: notificationAccepted({
      messages: [planned(1, { MessageId: 'm1', DueAt: DUE }), planned(2, { MessageId: 'm5', DueAt: DUE })],
    }).data,
  } as RecordedEvent;
  worker.sawPage!(page(recordedAcceptance('hubNotification-t1.n1'), later, cut));
  await due.upsert({
    id: 'm1',
    stream: 'hubNotification-t1.n1',
    tenant: 't1',
    kind: 'retry',
    dueAt: DUE,
    leaseUntil: '',
  });
  await due.upsert({
    id: 'm9',
    stream: 'hubNotification-t1.n3',
    tenant: 't1',
    kind: 'dispatch',
    dueAt: DUE,
    leaseUntil: '',
  });
  await due.upsert({
    id: 'm5',
    stream: 'hubNotification-t1.n5',
    tenant: 't1',
    kind: 'dispatch',
    dueAt: DUE,
    leaseUntil: '',
  });
  assert.is(await worker.runDue(), 3);
  assert.equal(
    engineSide.calls.map((c) => [c.messageId, c.known]),
    [
      ['m1', undefined],
      ['m5', undefined],
      ['m9', undefined],
    ],
  );
});

test('one claim of the dispatch worker fills every free slot', async ({ store }) => {
  await store.ensureCollection('due');
  const due = store.collection<DispatchDueItem>('due');
  for (let i = 0; i < 12; i++)
    await due.upsert({
      id: `m${i}`,
      stream: `hubNotification-t1.n${i}`,
      tenant: 't1',
      kind: 'dispatch',
      dueAt: DUE,
      leaseUntil: '',
    });
  const limits: number[] = [];
  const counted = {
    ...due,
    findManyAndUpdate: (f: never, u: never, o: { limit: number }) => (
      limits.push(o.limit), due.findManyAndUpdate(f, u, o as never)
    ),
  } as typeof due;
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  const { process, calls } = fakeProcess(() => held.then(() => 'submitted') as never);
  const worker = createDispatchWorker({
    items: async () => counted,
    clock,
    process,
    leaseMs: 60_000,
    concurrency: 8,
    pollMs: 60_000,
  });
  worker.start();
  try {
    await eventually(() => calls.length >= 8, 'the claimed items started');
    assert.is(calls.length, 8, 'every slot taken');
    assert.is(limits[0], 8, 'by the first claim');
  } finally {
    release();
    await worker.stop();
  }
});

test.run();
