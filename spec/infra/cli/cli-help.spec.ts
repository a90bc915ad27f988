// Every command answers --help with examples and the exit codes; usage errors exit 2 and
// name the command's help; output survives a closed pipe (`platform replay … | head -1`).
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { CliCommand, CliIo } from '../../../infra/cli/cli-kit.ts';
import { cliCommands } from '../../../infra/cli/commands.ts';
import { runCli } from '../../../infra/cli/main.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const bin = path.join(root, 'bin/platform.js');
const dir = mkdtempSync(path.join(tmpdir(), 'cli-help-'));
const env = { ...process.env, DATA_DIR: dir, LOG_LEVEL: 'silent' };

/** runs the CLI in this process, collecting what it writes */
async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (l) => out.push(l), err: (l) => err.push(l), env };
  let code: number;
  try {
    code = await runCli(argv, io);
  } catch (e) {
    code = -1;
    err.push(String(e));
  }
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** every command and subcommand, by its path (`keys rotate-config`) */
const paths = (commands: CliCommand[], prefix = ''): string[] =>
  commands.flatMap((c) => [`${prefix}${c.name}`, ...paths(c.subcommands ?? [], `${prefix}${c.name} `)]);

test.before(async () => {
  const store = createSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  const metadata = {
    tenant: 't',
    actor: 'x',
    correlationId: 'c',
    occurredAt: '2026-01-01T00:00:00.000Z',
    schemaVersion: 1,
  };
  await store.append(
    'many-t.one',
    Array.from({ length: 3000 }, (_, i) => ({
      id: randomUUID(),
      type: 'Thing',
      data: { i, pad: 'x'.repeat(100) },
      metadata,
    })),
    'no_stream',
  );
  await store.close();
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('platform --help lists every command; platform alone is a usage error (exit 2)', async () => {
  const help = await run('--help');
  assert.is(help.code, 0);
  for (const c of cliCommands()) assert.match(help.out, new RegExp(`^  ${c.name} +\\S`, 'm'));
  assert.match(help.out, /exit codes:\n {2}0 {2}done\n {2}1 .*\n {2}2 .*\n {2}3 /);
  const none = await run();
  assert.is(none.code, 2);
  assert.match(none.err, /^usage: platform <command>/);
});

test('every command and subcommand answers --help (and help <command>) with usage, examples and exit codes', async () => {
  const all = paths(cliCommands());
  assert.ok(
    all.includes('replay') && all.includes('keys rotate-config') && all.includes('projections parked'),
    all.join(', '),
  );
  for (const p of all) {
    for (const argv of [
      [...p.split(' '), '--help'],
      [...p.split(' '), '-h'],
      ['help', ...p.split(' ')],
    ]) {
      const r = await run(...argv);
      assert.is(r.code, 0, `${argv.join(' ')}: ${r.err}`);
      assert.match(r.out, new RegExp(`^usage: platform ${p}`), argv.join(' '));
      assert.match(r.out, /\nexamples:\n {2}\S/, `${p} has examples`);
      assert.match(r.out, /\nexit codes:\n/, `${p} documents its exit codes`);
    }
  }
});

test('usage errors exit 2 and point at the command’s help; nothing runs', async () => {
  const bogus = spawnSync(process.execPath, [bin, 'replay', '--bogus'], { cwd: root, env, encoding: 'utf8' });
  assert.is(bogus.status, 2);
  assert.match(bogus.stderr, /Unknown option '--bogus'/);
  assert.match(bogus.stderr, /See: platform replay --help/);
  const sub = await run('projections', 'nope');
  assert.is(sub.code, -1, 'a usage error reaches main, which answers 2');
  assert.match(sub.err, /unknown projections subcommand "nope"/);
  const extra = spawnSync(process.execPath, [bin, 'projections', 'retry', 'core.streams', 'extra'], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  assert.is(extra.status, 2);
  assert.match(extra.stderr, /unexpected argument "extra"/);
  assert.match(extra.stderr, /See: platform projections retry --help/);
});

test('a closed pipe: `platform replay … | head -1` ends quietly with exit 0, no EPIPE trace', async () => {
  const child = spawn(process.execPath, [bin, 'replay', '--stream', 'many-t.one'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  let first = '';
  child.stdout.once('data', (d) => {
    first = String(d).split('\n', 1)[0]!;
    child.stdout.destroy(); // the reader had enough, as head does
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  assert.match(first, /many-t\.one@0 {2}Thing/);
  assert.is(code, 0, stderr);
  assert.not.match(stderr, /EPIPE|Error/);
});

test.run();
