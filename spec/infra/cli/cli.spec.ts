import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventIdFor } from '../../../commands/core/event-id.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { eventually } from '../../core/eventually.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const bin = path.join(root, 'bin/platform.js');
const dir = mkdtempSync(path.join(tmpdir(), 'cli-'));
const env = { ...process.env, DATA_DIR: dir, LOG_LEVEL: 'warn', PORT: '0', HOST: '127.0.0.1' };

const cli = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { cwd: root, env, encoding: 'utf8' });

test.before(async () => {
  const store = createSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  const meta = (at: string, correlationId: string) => ({
    tenant: 't',
    actor: 'user:ann',
    correlationId,
    occurredAt: at,
    schemaVersion: 1,
  });
  await store.append(
    'account-t.a1',
    [
      {
        id: eventIdFor('c1', 0),
        type: 'AccountOpened',
        data: { owner: 'ann', openedAt: '2026-11-01T10:00:00.000Z' },
        metadata: meta('2026-11-01T10:00:00.000Z', 'corr-A'),
      },
      {
        id: eventIdFor('c2', 0),
        type: 'MoneyDeposited',
        data: { amount: 5 },
        metadata: meta('2026-11-01T11:00:00.000Z', 'corr-B'),
      },
    ],
    'no_stream',
  );
  await store.append(
    'other-t.x',
    [
      {
        id: eventIdFor('c3', 0),
        type: 'ThingHappened',
        data: { n: 1 },
        metadata: meta('2026-11-01T10:30:00.000Z', 'corr-B'),
      },
    ],
    'no_stream',
  );
  await store.close();
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('replay --stream prints a readable timeline', () => {
  const r = cli('replay', '--stream', 'account-t.a1');
  assert.is(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.is(lines.length, 3);
  assert.match(
    lines[0]!,
    /^2026-11-01T10:00:00.000Z {2}account-t\.a1@0 {2}AccountOpened by user:ann {2}\{"owner":"ann"/,
  );
  assert.match(lines[1]!, /account-t\.a1@1 {2}MoneyDeposited by user:ann {2}\{"amount":5\}/);
  assert.is(lines[2], '2 event(s)');
});

test('replay --correlation gathers events across streams', () => {
  const r = cli('replay', '--correlation', 'corr-B');
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /account-t\.a1@1 {2}MoneyDeposited/);
  assert.match(r.stdout, /other-t\.x@0 {2}ThingHappened/);
  assert.match(r.stdout, /2 event\(s\)/);
});

test('replay --from --to --category selects a time window of one category', () => {
  const r = cli('replay', '--from', '2026-11-01T10:15:00Z', '--to', '2026-11-01T12:00:00Z', '--category', 'account');
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /MoneyDeposited/);
  assert.not.match(r.stdout, /AccountOpened|ThingHappened/);
});

test('replay --state says when no decider is registered for a category', () => {
  const r = cli('replay', '--stream', 'other-t.x', '--state');
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /state: \(no decider registered for category "other"\)/);
});

test('bad usage and bad configuration exit 2 with a clear message', () => {
  const usage = cli('replay');
  assert.is(usage.status, 2);
  assert.match(usage.stderr, /replay needs --stream/);
  const unknown = cli('frobnicate');
  assert.is(unknown.status, 2);
  assert.match(unknown.stderr, /unknown command "frobnicate"/);
  const badPort = spawnSync(process.execPath, [bin, 'projections'], {
    cwd: root,
    env: { ...env, PORT: 'eighty' },
    encoding: 'utf8',
  });
  assert.is(badPort.status, 2);
  assert.match(badPort.stderr, /PORT must be an integer/);
});

test('start serves health, metrics and JSON 404s, projects, and shuts down on SIGTERM', async () => {
  // services that seed nothing at start (identity and bridge do), so the log keeps its 3 events for the next test
  const child = spawn(process.execPath, [bin, 'start', '--services', 'audit,hub'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const url = await eventually(
    () => {
      const m = /Platform listening on (http:\/\/\S+)/.exec(out);
      assert.ok(m, `no banner in: ${out}`);
      return m[1]!;
    },
    { what: 'the banner', timeoutMs: 15_000, intervalMs: 50 },
  );
  assert.match(out, /services {8}: audit, hub/);
  const ready = await eventually(
    async () => {
      const r = await fetch(`${url}/health/ready`);
      assert.is(r.status, 200, await r.clone().text());
      return r;
    },
    { what: 'ready', intervalMs: 50 },
  );
  const report = (await ready.json()) as { checks: Array<{ name: string; ok: boolean }> };
  assert.ok(report.checks.some((c) => c.name === 'projection:core.streams' && c.ok));
  const missing = await fetch(`${url}/api/nothing-here`);
  assert.is(missing.status, 404);
  assert.is(((await missing.json()) as { code: string }).code, 'ROUTE.NOT_FOUND');
  const metrics = await (await fetch(`${url}/metrics`)).text();
  assert.match(metrics, /projection_lag_positions\{projection="core.streams"\} 0/);
  child.kill('SIGTERM');
  assert.is(await exited, 0);
  // health and metrics: the address this process is bound to
  assert.ok(out.includes(`health          : ${url}/health/ready   metrics: ${url}/metrics`), out);
});

test('start --services none: a worker process with health and metrics (on its own address) but no service routes', async () => {
  // the public base URL is the API process's: the worker's health is where the worker listens
  const workerEnv = { ...env, DATA_DIR: `${dir}-none`, PUBLIC_BASE_URL: 'https://api.example.test' };
  const child = spawn(process.execPath, [bin, 'start', '--services', 'none'], {
    cwd: root,
    env: workerEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const url = await eventually(
    () => {
      const m = /Platform listening on (http:\/\/\S+)/.exec(out);
      assert.ok(m, `no banner in: ${out}`);
      return m[1]!;
    },
    { what: 'the banner', timeoutMs: 15_000, intervalMs: 50 },
  );
  assert.match(out, /services {8}: none \(worker process\)/);
  assert.is((await fetch(`${url}/health/live`)).status, 200);
  assert.is((await fetch(`${url}/cas/oidc/jwks`)).status, 404);
  child.kill('SIGTERM');
  assert.is(await exited, 0);
  assert.match(out, /public base URL : https:\/\/api\.example\.test\n/);
  assert.ok(out.includes(`health          : ${url}/health/ready   metrics: ${url}/metrics`), out);
  rmSync(`${dir}-none`, { recursive: true, force: true });
});

test('projections lists each projection with position and lag; rebuild switches to a new generation', () => {
  const before = cli('projections');

  assert.is(before.status, 0, before.stderr);
  assert.match(before.stdout, /core\.streams\s+1\s+1\s+0{19}3\s+0/);
  const r = cli('rebuild', 'core.streams');
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /core\.streams: generation 2 live at position 0{19}3; 3 events/);
  const after = cli('projections');
  assert.match(after.stdout, /core\.streams\s+1\s+2\s+0{19}3\s+0/);
  const bad = cli('rebuild', 'nope');
  assert.is(bad.status, 2);
  assert.match(bad.stderr, /core\.streams/);
});

test.run();
