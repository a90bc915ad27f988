import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createKeyRing } from '../../../commands/identity/signing-key.ring.ts';
import { keysRotate } from '../../../infra/cli/keys.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import { loadConfig } from '../../../infra/core/config.ts';
import { loadKeyEncryptionSecret } from '../../../infra/identity/key-secret.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';

const test = suite('platform keys rotate');

test('prints the new kid, when it signs, and what it replaces; --now signs at once', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'keys-cli-'));
  const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  try {
    const config = loadConfig({ DATA_DIR: dir });
    const clock = manualClock('2026-05-01T00:00:00.000Z');
    const ring = createKeyRing({ eventStore, clock, secret: loadKeyEncryptionSecret(config) });
    await ring.ensureKey();
    const first = (await ring.signingKey()).kid;

    const lines: string[] = [];
    assert.is(await keysRotate([], { eventStore, config, clock, print: (l) => lines.push(l) }), 0);
    const kid = /^new signing key (\S+)$/.exec(lines[0] ?? '')?.[1];
    assert.ok(kid && kid !== first, lines.join('\n'));
    assert.match(lines[1]!, /signs from 2026-05-01T00:05:00.000Z \(in 300 s\)/);
    assert.match(lines[2]!, new RegExp(`replaces ${first}: stops signing at 2026-05-01T00:05:00.000Z`));
    await ring.reload();
    assert.is((await ring.signingKey()).kid, first);
    assert.ok((await ring.publishedJwks()).some((k) => k.kid === kid));

    lines.length = 0;
    await keysRotate(['--now'], { eventStore, config, clock, print: (l) => lines.push(l) });
    const now = /^new signing key (\S+)$/.exec(lines[0] ?? '')?.[1];
    assert.match(lines[1]!, /\(now\)/);
    await ring.reload();
    assert.is((await ring.signingKey()).kid, now);

    try {
      await keysRotate(['--delay', 'soon'], { eventStore, config, clock, print: () => undefined });
      assert.unreachable('a bad --delay is refused');
    } catch (err) {
      assert.match(String(err), /--delay/);
    }
  } finally {
    await eventStore.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
