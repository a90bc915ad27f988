import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createWorkEngine, type DueItem } from '../../../commands/core/work-engine.ts';
import type { RecordedEvent } from '../../../domain/core/event.ts';
import { systemClock } from '../../../infra/core/clock.port.ts';
import { createEngineWaker } from '../../../infra/core/engine-waker.ts';
import { liveCollection } from '../../../projections/core/writable-model.ts';

const test = suite('engine waker: after a page, the work engines its events can concern');

const event = (stream: string, type: string) => ({ stream, type }) as RecordedEvent;
const page = (...events: RecordedEvent[]) => ({ events, position: '9' });

function engines() {
  const woken: string[] = [];
  const engine = (name: string, fedBy?: string[]) => ({
    name,
    ...(fedBy !== undefined && { fedBy }),
    wake: () => void woken.push(name),
  });
  return {
    woken,
    list: [
      engine('dispatch', ['hub.dispatch']),
      engine('deliveries', ['bridge.deliveries']),
      engine('anything'),
      engine('clock-only', []),
      engine('elsewhere', ['not-here']),
    ],
  };
}
const consumers = [
  { name: 'hub.dispatch', filter: { categories: ['hubNotification'] } },
  {
    name: 'bridge.deliveries',
    filter: { categories: ['delivery'], eventTypes: ['DeliveryScheduled', 'DeliverySucceeded'] },
  },
];

test('a page of one service wakes that service engine, the unfed ones and those whose feeder runs elsewhere; not the others', () => {
  const { woken, list } = engines();
  createEngineWaker(list, consumers)(page(event('hubNotification-1', 'NotificationAccepted')));
  assert.equal(woken, ['dispatch', 'anything', 'elsewhere']);
});

test('the feeder filter decides: a delivery event type its projection does not take wakes nothing of the bridge', () => {
  const { woken, list } = engines();
  const wake = createEngineWaker(list, consumers);
  wake(page(event('delivery-1', 'DeliveryAttemptStarted')));
  assert.equal(woken, ['anything', 'elsewhere']);
  woken.length = 0;
  wake(page(event('identityClient-1', 'ClientRegistered'), event('delivery-1', 'DeliverySucceeded')));
  assert.equal(woken, ['deliveries', 'anything', 'elsewhere']);
});

test('an engine that finds nothing for it in the page (wantsPage) is not woken by it; the others are', () => {
  const woken: string[] = [];
  const seen: number[] = [];
  const list = [
    {
      name: 'picky',
      fedBy: ['hub.dispatch'],
      wantsPage: (p: { events: unknown[] }) => (seen.push(p.events.length), p.events.length > 1),
      wake: () => void woken.push('picky'),
    },
    { name: 'plain', fedBy: ['hub.dispatch'], wake: () => void woken.push('plain') },
  ];
  const wake = createEngineWaker(list, consumers);
  wake(page(event('hubNotification-1', 'NotificationAccepted')));
  assert.equal(woken, ['plain']);
  wake(page(event('hubNotification-1', 'NotificationAccepted'), event('hubNotification-2', 'NotificationAccepted')));
  assert.equal(woken, ['plain', 'picky', 'plain']);
  wake(page(event('delivery-1', 'DeliverySucceeded')));
  assert.equal(seen, [1, 2], 'not asked about a page that does not feed it');
});

test('an engine that keeps something of the pages (sawPage) is shown each page that feeds it, before it is asked whether to wake', () => {
  const calls: string[] = [];
  const list = [
    {
      name: 'keeper',
      fedBy: ['hub.dispatch'],
      sawPage: (p: { events: RecordedEvent[] }) => void calls.push(`saw ${p.events.map((e) => e.stream).join(',')}`),
      wantsPage: () => (calls.push('asked'), false),
      wake: () => void calls.push('woken'),
    },
  ];
  const wake = createEngineWaker(list, consumers);
  wake(page(event('hubNotification-1', 'NotificationAccepted')));
  wake(page(event('delivery-1', 'DeliverySucceeded')));
  assert.equal(
    calls,
    ['saw hubNotification-1', 'asked'],
    'shown even when it does not wake; not shown a page that does not feed it',
  );
  const engine = createWorkEngine({
    name: 'e',
    items: async () => ({}) as never,
    clock: systemClock,
    handle: async () => undefined,
    sawPage: () => undefined,
  });
  assert.type(engine.sawPage, 'function', 'the work engine hands its sawPage to the waker');
});

test('a work engine on a liveCollection is fed by that collection projection; fedBy overrides it', () => {
  const store = {} as never;
  const on = (fedBy?: string[]) =>
    createWorkEngine({
      name: 'e',
      items: liveCollection<DueItem>(store, 'hub.dispatch', 'due'),
      clock: systemClock,
      handle: async () => undefined,
      ...(fedBy !== undefined && { fedBy }),
    });
  assert.equal(on().fedBy, ['hub.dispatch']);
  assert.equal(on([]).fedBy, []);
  assert.is(
    createWorkEngine({ name: 'e', items: async () => ({}) as never, clock: systemClock, handle: async () => undefined })
      .fedBy,
    undefined,
  );
});

test.run();
