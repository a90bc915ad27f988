import { parseArgs } from 'node:util';
import { createKeyRing } from '../../commands/identity/signing-key.ring.ts';
import { systemClock, type Clock } from '../core/clock.port.ts';
import type { Config } from '../core/config.ts';
import type { EventStore } from '../core/event-store.port.ts';
import { loadKeyEncryptionSecret } from '../identity/key-secret.ts';

export const KEYS_USAGE = `keys rotate [--now | --delay <seconds>]
        generate a new signing key: published at once, signing after the publish delay (default 300 s;
        --now: at once). The key it replaces stops signing then and stays published until its tokens expire`;

/**
 * `platform keys rotate [--now] [--delay S]`: prints the new kid, when it starts signing, and until when
 * the keys it supersedes stay published. Returns the exit code.
 */
export async function keysRotate(
  args: string[],
  o: { eventStore: EventStore; config: Config; clock?: Clock; print?: (line: string) => void },
): Promise<number> {
  const { values } = parseArgs({ args, options: { now: { type: 'boolean' }, delay: { type: 'string' } }, strict: true });
  const print = o.print ?? ((line: string) => console.log(line));
  let delaySeconds: number | undefined;
  if (values.delay !== undefined) {
    delaySeconds = Number(values.delay);
    if (!Number.isInteger(delaySeconds) || delaySeconds < 0 || delaySeconds > 7 * 86400) {
      throw new Error(`--delay takes whole seconds from 0 to ${7 * 86400}, got "${values.delay}"`);
    }
  }
  if (values.now && delaySeconds !== undefined) throw new Error('--now and --delay exclude each other');
  const clock = o.clock ?? systemClock;
  const ring = createKeyRing({
    eventStore: o.eventStore,
    clock,
    secret: loadKeyEncryptionSecret(o.config),
  });
  await ring.reload();
  const result = await ring.rotate({ ...(values.now && { now: true }), ...(delaySeconds !== undefined && { delaySeconds }) });
  const inSeconds = Math.max(0, Math.round((Date.parse(result.activatesAt) - clock.now().getTime()) / 1000));
  print(`new signing key ${result.kid}`);
  print(`  published now; signs from ${result.activatesAt}${inSeconds > 0 ? ` (in ${inSeconds} s)` : ' (now)'}`);
  for (const old of result.superseded) {
    print(`  replaces ${old.kid}: stops signing at ${old.retiresAt}, published until ${old.publishUntil}`);
  }
  return 0;
}

