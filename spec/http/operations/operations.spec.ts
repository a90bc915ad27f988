// The operations API over HTTP against the whole platform on a loopback port (real SQLite stores, real
// tokens): the projections' figures, parked events and their retry, a rebuild in the background with its
// progress while the live generation serves, readiness with the engines' backlogs, and who may call it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createDirectoryCommands } from '../../../commands/identity/directory.commands.ts';
import { streamName } from '../../../domain/core/stream-name.ts';
import { parkedEvents } from '../../../projections/core/parked-events.ts';
import { eventually } from '../../core/eventually.ts';
import { machineToken } from '../identity/machine-token.ts';
import { ADMIN, type PortalPlatform, portalApi, portalSignIn, startPortalPlatform } from '../portal/portal-harness.ts';

const test = suite('operations API');
let p: PortalPlatform;
let ops: string;
let bridgeOnly: string;
let otherTenant: string;

const call = async (method: string, path: string, token = ops) => {
  const res = await fetch(`${p.base}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), headers: res.headers };
};

/** appends `n` events to streams of a category no projection but the stream catalog reads */
async function seed(n: number) {
  const now = new Date().toISOString();
  for (let i = 0; i < n; i += 500) {
    await p.platform.stores.eventStore.appendMany(
      Array.from({ length: Math.min(500, n - i) }, (_, j) => ({
        stream: streamName('opsspec', 'demo', `s${i + j}`),
        expected: 'any' as const,
        events: [
          {
            id: `ops-spec-${i + j}`,
            type: 'Seeded',
            data: { i: i + j },
            metadata: { tenant: 'demo', occurredAt: now, schemaVersion: 1 },
          },
        ],
      })),
    );
  }
}

test.before(async () => {
  // small rebuild pages: a rebuild of a few thousand events takes long enough to be seen running
  process.env.OPS_REBUILD_PAGE_SIZE = '100';
  p = await startPortalPlatform();
  const directory = createDirectoryCommands({
    eventStore: p.platform.stores.eventStore,
    clock: { now: () => new Date() },
  });
  ops = await machineToken({
    baseUrl: p.base,
    directory,
    tenant: ADMIN.tenant,
    clientId: 'ops-spec',
    scopes: ['ops:admin'],
  });
  bridgeOnly = await machineToken({
    baseUrl: p.base,
    directory,
    tenant: ADMIN.tenant,
    clientId: 'bridge-spec',
    scopes: ['bridge:admin'],
  });
  await directory.createTenant({ name: 'ACME' }, { tenant: 'acme', actor: 'spec' }, 'spec/tenant/acme');
  otherTenant = await machineToken({
    baseUrl: p.base,
    directory,
    tenant: 'acme',
    clientId: 'acme-ops',
    scopes: ['ops:admin'],
  });
});
test.after(async () => {
  await p.stop();
});

test('the projections: the figures of `platform projections`, for every projection of the platform', async () => {
  const r = await call('GET', '/ops/v1/projections');
  assert.is(r.status, 200, JSON.stringify(r.body));
  const streams = r.body.items.find((x: { name: string }) => x.name === 'core.streams');
  assert.ok(streams, 'the stream catalog is listed');
  assert.is(streams.version, 1);
  assert.ok(streams.generation >= 1);
  assert.match(streams.position, /^\d{20}/);
  assert.match(streams.head, /^\d{20}/);
  assert.type(streams.lag, 'number');
  assert.is(streams.parked, 0);
  assert.ok(['running', 'stopped'].includes(streams.state), streams.state);
  assert.is(streams.rebuild, null);
  assert.ok(r.body.items.some((x: { name: string }) => x.name === 'bridge.trace'));
});

test('who may call it: ops:admin of an operator tenant; the OpenAPI document is public', async () => {
  assert.is((await fetch(`${p.base}/ops/v1/projections`)).status, 401);
  const noScope = await call('GET', '/ops/v1/projections', bridgeOnly);
  assert.is(noScope.status, 403);
  const elsewhere = await call('GET', '/ops/v1/readiness', otherTenant);
  assert.is(elsewhere.status, 403);
  assert.is(elsewhere.body.code, 'OPS.TENANT_FORBIDDEN');
  assert.is(elsewhere.body.details.tenant, 'acme');
  const rebuildElsewhere = await call('POST', '/ops/v1/projections/core.streams/rebuild', otherTenant);
  assert.is(rebuildElsewhere.status, 403, 'a tenant admin elsewhere cannot rebuild the shared projections');
  const doc = await fetch(`${p.base}/ops/v1/openapi.json`);
  assert.is(doc.status, 200);
  const paths = Object.keys(((await doc.json()) as { paths: object }).paths);
  assert.ok(paths.includes('/ops/v1/projections/{name}/rebuild'), paths.join(' '));
});

test('bad input: an unknown projection is 404 with the names, a bad name or paging is 400', async () => {
  const unknown = await call('GET', '/ops/v1/projections/nope/parked');
  assert.is(unknown.status, 404);
  assert.is(unknown.body.code, 'PROJECTION.NOT_FOUND');
  assert.ok(unknown.body.details.projections.includes('core.streams'));
  assert.is((await call('POST', '/ops/v1/projections/nope/rebuild')).status, 404);
  const badName = await call('POST', '/ops/v1/projections/a%20b/retry');
  assert.is(badName.status, 400);
  assert.is(badName.body.code, 'REQUEST.INVALID');
  assert.is((await call('GET', '/ops/v1/projections/core.streams/parked?limit=0')).status, 400);
  assert.is((await call('GET', '/ops/v1/projections/core.streams/parked?color=red')).status, 400);
  const noRebuild = await call('GET', '/ops/v1/rebuilds/00000000-0000-0000-0000-000000000000');
  assert.is(noRebuild.status, 404);
  assert.is(noRebuild.body.code, 'REBUILD.NOT_FOUND');
});

test('parked events: listed a page at a time, counted in the listing; retry applies those that apply now', async () => {
  await seed(1);
  const [event] = await p.platform.stores.eventStore.readStream(streamName('opsspec', 'demo', 's0'));
  const parked = parkedEvents(p.platform.stores.readStore);
  const base = { projection: 'core.streams', error: 'it broke', parkedAt: new Date().toISOString(), retries: 0 };
  await parked.upsert({
    ...base,
    id: `core.streams@${event!.position}`,
    position: event!.position,
    eventId: event!.id,
    stream: event!.stream,
    revision: 0,
    type: event!.type,
  });
  // an event no longer in its stream: its retry fails and stays parked
  await parked.upsert({
    ...base,
    id: 'core.streams@99999999999999999999',
    position: '99999999999999999999',
    eventId: 'gone',
    stream: streamName('opsspec', 'demo', 'gone'),
    revision: 0,
    type: 'Seeded',
  });
  const first = await call('GET', '/ops/v1/projections/core.streams/parked?limit=1');
  assert.is(first.status, 200);
  assert.is(first.body.total, 2);
  assert.is(first.body.items.length, 1);
  assert.is(first.body.items[0].eventId, event!.id, 'in log order');
  const second = await call('GET', '/ops/v1/projections/core.streams/parked?limit=1&offset=1');
  assert.is(second.body.items[0].eventId, 'gone');
  const listed = (await call('GET', '/ops/v1/projections')).body.items.find(
    (x: { name: string }) => x.name === 'core.streams',
  );
  assert.is(listed.parked, 2);

  const retry = await call('POST', '/ops/v1/projections/core.streams/retry');
  assert.is(retry.status, 200);
  assert.equal(retry.body, { applied: 1, failed: 1 });
  const left = await call('GET', '/ops/v1/projections/core.streams/parked');
  assert.is(left.body.total, 1);
  assert.is(left.body.items[0].retries, 1);
  assert.match(left.body.items[0].error, /no longer in/);
  await parked.delete('core.streams@99999999999999999999');
});

test('a rebuild runs in the background, one at a time, the live generation serving until the switch', async () => {
  await seed(6000);
  const before = (await call('GET', '/ops/v1/projections')).body.items.find(
    (x: { name: string }) => x.name === 'core.streams',
  );
  // two at once: one starts, the other finds it running
  const answers = await Promise.all([
    call('POST', '/ops/v1/projections/core.streams/rebuild'),
    call('POST', '/ops/v1/projections/core.streams/rebuild'),
  ]);
  const started = answers.find((a) => a.status === 202)!;
  const again = answers.find((a) => a.status !== 202)!;
  assert.ok(started, JSON.stringify(answers.map((a) => a.body)));
  assert.is(started.body.state, 'running');
  assert.is(started.body.projection, 'core.streams');
  assert.is(started.headers.get('location'), `/ops/v1/rebuilds/${started.body.id}`);
  assert.ok(started.body.progress.total > 6000, 'the total is the log head');
  assert.is(again.status, 409);
  assert.is(again.body.code, 'REBUILD.RUNNING');
  assert.is(again.body.details.rebuild, started.body.id);

  // meanwhile the live generation serves: the listing answers, and names it with the projection rebuilding
  const during = (await call('GET', '/ops/v1/projections')).body.items.find(
    (x: { name: string }) => x.name === 'core.streams',
  );
  assert.is(during.state, 'rebuilding');
  assert.is(during.generation, before.generation);
  assert.equal(during.rebuild, { id: started.body.id, state: 'running' });

  const done = await eventually(
    async () => {
      const r = await call('GET', `/ops/v1/rebuilds/${started.body.id}`);
      return r.body.state === 'switched' && r.body;
    },
    { what: 'the rebuild to switch' },
  );
  assert.is(done.generation, before.generation + 1);
  assert.is(done.progress.percent, 100);
  assert.is(done.progress.done, done.progress.total);
  assert.ok(done.progress.events > 6000, `${done.progress.events} events`);
  assert.ok(done.progress.rate > 0);
  assert.is(done.progress.etaSeconds, null);
  assert.type(done.finishedAt, 'string');
  const after = (await call('GET', '/ops/v1/projections')).body.items.find(
    (x: { name: string }) => x.name === 'core.streams',
  );
  assert.is(after.generation, before.generation + 1);
  assert.equal(after.rebuild, { id: started.body.id, state: 'switched' });
  const next = await call('POST', '/ops/v1/projections/core.streams/rebuild');
  assert.is(next.status, 202, 'once switched, another rebuild may start');
  await eventually(async () => (await call('GET', `/ops/v1/rebuilds/${next.body.id}`)).body.state === 'switched');
});

test('readiness: the /health/ready checks and each work engine with its due and leased items', async () => {
  const r = await call('GET', '/ops/v1/readiness');
  assert.is(r.status, 200);
  assert.type(r.body.ok, 'boolean');
  assert.is(r.body.workers, true);
  const names = r.body.checks.map((c: { name: string }) => c.name);
  assert.ok(names.includes('eventStore') && names.includes('readStore'), names.join(' '));
  assert.ok(names.includes('projection:core.streams'));
  assert.ok(r.body.engines.length > 0);
  for (const e of r.body.engines) {
    assert.type(e.name, 'string');
    assert.type(e.due, 'number');
    assert.ok(e.leased === null || typeof e.leased === 'number');
    assert.type(e.inFlight, 'number');
  }
});

test('the portal passes /portal/api/ops/v1 on to it for the demo admin', async () => {
  const { jar } = await portalSignIn(p.base);
  const r = await portalApi(p.base, jar, '/ops/v1/projections');
  assert.is(r.status, 200, await r.clone().text());
  assert.ok(((await r.json()) as { items: unknown[] }).items.length > 5);
});

test.run();
