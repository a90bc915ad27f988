import { createConfigCommands } from '../../commands/bridge/config-center.commands.ts';
import { createConnectionCommands } from '../../commands/bridge/connections.commands.ts';
import { createKeyedSecretBox } from '../../commands/core/secret.box.ts';
import { resealSigningSecrets } from '../../commands/hub/signing-secrets.reseal.ts';
import { type Clock, systemClock } from '../core/clock.port.ts';
import type { Config } from '../core/config.ts';
import type { EventStore } from '../core/event-store.port.ts';
import { loadKeySecrets } from '../identity/key-secret.ts';
import { EXIT, parse } from './cli-kit.ts';

/**
 * `platform keys rotate-config`: seals again, under the current key-encryption secret,
 * every configuration-center secret value, connection secret and hub delivery-service signing secret sealed
 * under a previous one (KEY_ENCRYPTION_SECRET_PREVIOUS) or written in clear by an earlier version, by
 * appending new events (ConfigValueSet, ConnectionUpdated, SigningSecretIssued; the old events keep the old
 * ciphertext, which needs the old secret).
 * Idempotent: a second run finds everything current. Exit 1 when some value opens with none of the secrets.
 */
export async function keysRotateConfig(
  args: string[],
  o: { eventStore: EventStore; config: Config; clock?: Clock; print: (line: string) => void },
): Promise<number> {
  parse(args, {}, { command: 'keys rotate-config' });
  const secrets = loadKeySecrets(o.config);
  const clock = o.clock ?? systemClock;
  const ctx = { tenant: 'platform', actor: 'system:rotate-config' };
  const box = createKeyedSecretBox(secrets);
  const config = await createConfigCommands({ eventStore: o.eventStore, clock, box }).reseal(ctx);
  const connections = await createConnectionCommands({ eventStore: o.eventStore, clock, secret: secrets }).reseal(ctx);
  const signing = await resealSigningSecrets({ eventStore: o.eventStore, clock, box }, ctx);
  o.print(
    `key-encryption secret in use: key id ${box.kid}${secrets.previous.length > 0 ? ` (${secrets.previous.length} previous one(s) given)` : ''}`,
  );
  o.print(`configuration secrets: ${config.resealed.length} sealed again, ${config.current} already current`);
  for (const e of config.resealed) o.print(`  sealed again: ${e}`);
  o.print(`connections: ${connections.resealed.length} sealed again, ${connections.current} already current`);
  for (const e of connections.resealed) o.print(`  sealed again: ${e}`);
  o.print(`hub signing secrets: ${signing.resealed.length} sealed again, ${signing.current} already current`);
  for (const e of signing.resealed) o.print(`  sealed again: ${e}`);
  const failed = [
    ...config.failed.map((f) => ({ ...f, what: 'configuration' })),
    ...connections.failed.map((f) => ({ ...f, what: 'connection' })),
    ...signing.failed.map((f) => ({ ...f, what: 'hub delivery service' })),
  ];
  for (const f of failed) o.print(`  cannot open ${f.what} ${f.entry}: ${f.error}`);
  return failed.length > 0 ? EXIT.failed : EXIT.ok;
}
