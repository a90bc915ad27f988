import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { commandHandler } from '../../../commands/core/command-handler.ts';
import { replay } from '../../../infra/cli/replay.ts';
import type { DeciderRegistry } from '../../../infra/platform-service.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { accountDecider } from '../../core/fixtures/account.decider.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'replay-'));
const store = createSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
test.after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('--state prints the aggregate state after each event, folded with the category decider', async () => {
  const handle = commandHandler(store, accountDecider);
  const ctx = { tenant: 't', actor: 'user:ann', correlationId: 'c-9' };
  const run = (commandId: string, command: Parameters<typeof handle>[0]['command'], now: string) =>
    handle({ stream: 'account-t.z', command, commandId, now, context: ctx });
  await run('1', { type: 'OpenAccount', owner: 'ann', at: '2026-11-22T09:00:00.000Z' }, '2026-11-22T09:00:00.000Z');
  await run('2', { type: 'Deposit', amount: 40 }, '2026-11-22T09:01:00.000Z');
  await run('3', { type: 'CloseAccount' }, '2026-11-22T09:02:00.000Z');
  const lines: string[] = [];
  const deciders = { account: accountDecider } as unknown as DeciderRegistry;
  const n = await replay(
    store,
    { kind: 'correlation', correlationId: 'c-9' },
    { state: true, deciders, write: (l) => lines.push(l) },
  );
  assert.is(n, 4);
  assert.equal(
    lines.filter((l) => l.startsWith('    state:')),
    [
      '    state: {"status":"open","owner":"ann","balance":0}',
      '    state: {"status":"open","owner":"ann","balance":40}',
      '    state: {"status":"open","owner":"ann","balance":0}',
      '    state: {"status":"closed","owner":"ann","balance":0}',
    ],
  );
  assert.match(lines[0]!, /^2026-11-22T09:00:00.000Z {2}account-t\.z@0 {2}AccountOpened by user:ann/);
  assert.is(lines[lines.length - 1], '4 event(s)');
});

test.run();
