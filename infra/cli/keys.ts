import { createKeyRing } from '../../commands/identity/signing-key.ring.ts';
import { type Clock, systemClock } from '../core/clock.port.ts';
import type { Config } from '../core/config.ts';
import type { EventStore } from '../core/event-store.port.ts';
import { loadKeySecrets } from '../identity/key-secret.ts';
import { parse, UsageError } from './cli-kit.ts';

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
  const { values } = parse(args, { now: { type: 'boolean' }, delay: { type: 'string' } }, { command: 'keys rotate' });
  const print = o.print ?? ((line: string) => console.log(line));
  let delaySeconds: number | undefined;
  if (values.delay !== undefined) {
    delaySeconds = Number(values.delay);
    if (!Number.isInteger(delaySeconds) || delaySeconds < 0 || delaySeconds > 7 * 86400) {
      throw new UsageError(`--delay takes whole seconds from 0 to ${7 * 86400}, got "${values.delay}"`, 'keys rotate');
    }
  }
  if (values.now && delaySeconds !== undefined)
    throw new UsageError('--now and --delay exclude each other', 'keys rotate');
  const clock = o.clock ?? systemClock;
  const { current, previous } = loadKeySecrets(o.config);
  const ring = createKeyRing({ eventStore: o.eventStore, clock, secret: current, previousSecrets: previous });
  await ring.reload();
  const result = await ring.rotate({
    ...(values.now && { now: true }),
    ...(delaySeconds !== undefined && { delaySeconds }),
  });
  const inSeconds = Math.max(0, Math.round((Date.parse(result.activatesAt) - clock.now().getTime()) / 1000));
  print(`new signing key ${result.kid}`);
  print(`  published now; signs from ${result.activatesAt}${inSeconds > 0 ? ` (in ${inSeconds} s)` : ' (now)'}`);
  for (const old of result.superseded) {
    print(`  replaces ${old.kid}: stops signing at ${old.retiresAt}, published until ${old.publishUntil}`);
  }
  return 0;
}
