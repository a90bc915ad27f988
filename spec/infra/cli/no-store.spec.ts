// A one-shot command on a DATA_DIR that holds no store (a mistyped path, or ./data before the first start)
// says so and exits 2, creating nothing, instead of opening an empty store and reporting "0 event(s)".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = path.resolve(import.meta.dirname, '../../..');
const bin = path.join(root, 'bin/platform.js');
const tmp = mkdtempSync(path.join(tmpdir(), 'no-store-'));
const dataDir = path.join(tmp, 'data');
const baseEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent' };
for (const name of ['DATA_DIR', 'ESDB_URL', 'MONGODB_URL']) delete baseEnv[name];

const cli = (args: string[], o: { env?: NodeJS.ProcessEnv; cwd?: string } = {}) =>
  spawnSync(process.execPath, [bin, ...args], { cwd: o.cwd ?? root, env: { ...baseEnv, ...o.env }, encoding: 'utf8' });

test.after(() => rmSync(tmp, { recursive: true, force: true }));

const COMMANDS = [
  ['replay', '--stream', 'account-t.a1'],
  ['replay', '--from', '2026-01-01T00:00:00Z', '--to', '2026-01-02T00:00:00Z'],
  ['projections'],
  ['projections', 'parked'],
  ['projections', 'retry', 'core.streams'],
  ['rebuild', 'core.streams'],
  ['keys', 'rotate', '--now'],
  ['keys', 'rotate-config'],
  ['workflow', 'import', path.join(tmp, 'export.zip')],
  ['hub-housekeeping', '--all-tenants'],
];

for (const args of COMMANDS) {
  test(`platform ${args.join(' ')}: no store in DATA_DIR, exit 2, nothing created`, () => {
    const r = cli(args, { env: { DATA_DIR: dataDir } });
    assert.is(r.status, 2, `${r.stdout}${r.stderr}`);
    assert.match(r.stderr, `platform: no store in DATA_DIR ${dataDir} (no events.sqlite there)`);
    assert.match(r.stderr, 'Start the platform first (platform start, or npm start, with this DATA_DIR)');
    assert.is(r.stdout, '');
    assert.equal(readdirSync(tmp), [], 'nothing created');
  });
}

test('the default DATA_DIR (./data of the working folder) is named and not created', () => {
  const r = cli(['projections'], { cwd: tmp });
  assert.is(r.status, 2, `${r.stdout}${r.stderr}`);
  assert.match(r.stderr, `no store in DATA_DIR ${dataDir} `);
  assert.not.ok(existsSync(dataDir));
  assert.equal(readdirSync(tmp), []);
});

test('an existing but empty DATA_DIR is left empty', () => {
  const empty = mkdtempSync(path.join(tmpdir(), 'no-store-empty-'));
  try {
    const r = cli(['replay', '--stream', 'account-t.a1'], { env: { DATA_DIR: empty } });
    assert.is(r.status, 2, `${r.stdout}${r.stderr}`);
    assert.match(r.stderr, `no store in DATA_DIR ${empty} `);
    assert.equal(readdirSync(empty), []);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});

test('usage errors still come first: a bad command line is exit 2 with its own message', () => {
  const r = cli(['rebuild', 'no.such.projection'], { env: { DATA_DIR: dataDir } });
  assert.is(r.status, 2);
  assert.match(r.stderr, 'unknown projection no.such.projection');
  assert.not.match(r.stderr, 'no store');
});

test.run();
