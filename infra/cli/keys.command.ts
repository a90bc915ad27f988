import { loadConfig } from '../core/config.ts';
import { openCommandStores } from '../stores.ts';
import { type CliCommand, type CliIo, parse, UsageError } from './cli-kit.ts';
import { keysRotate } from './keys.ts';
import { keysRotateConfig } from './rotate-config.ts';

const withStores = async (
  io: CliIo,
  f: (o: {
    eventStore: Awaited<ReturnType<typeof openCommandStores>>['eventStore'];
    config: ReturnType<typeof loadConfig>;
  }) => Promise<number>,
) => {
  const config = loadConfig(io.env);
  const stores = await openCommandStores(config);
  try {
    return await f({ eventStore: stores.eventStore, config });
  } finally {
    await stores.close();
  }
};

const rotate: CliCommand = {
  name: 'rotate',
  summary: 'a new signing key for the identity provider',
  usage: ['keys rotate [--now | --delay <seconds>]'],
  description: `Generates a new signing key: published at once (JWKS), signing after the publish delay (default
300 s, so caches learn it first). The key it replaces stops signing then and stays published until the
tokens it signed have expired.

options:
  --now             sign with the new key at once
  --delay SECONDS   the publish delay (0 to 604800)`,
  examples: ['platform keys rotate', 'platform keys rotate --now'],
  run: (args, io) => withStores(io, (o) => keysRotate(args, { ...o, print: io.out })),
};

const rotateConfig: CliCommand = {
  name: 'rotate-config',
  summary: 'seal configuration, connection and hub signing secrets again under the current key-encryption secret',
  usage: ['keys rotate-config'],
  description: `After KEY_ENCRYPTION_SECRET was changed (the former secret in KEY_ENCRYPTION_SECRET_PREVIOUS, comma-
separated): seals every secret configuration value, connection secret and hub delivery-service signing
secret sealed under a previous secret, or written in clear by an earlier version, again under the current
one, by appending new events. Run it once
after the change (again is harmless); then \`platform keys rotate\` for the signing keys. The previous
secret can go once the signing keys it encrypted have expired and no API destination created before the
change remains (their signing secrets keep the old sealing).`,
  examples: ['KEY_ENCRYPTION_SECRET=<new> KEY_ENCRYPTION_SECRET_PREVIOUS=<old> platform keys rotate-config'],
  run: (args, io) => withStores(io, (o) => keysRotateConfig(args, { ...o, print: io.out })),
};

/** `platform keys rotate | rotate-config`. */
export const keysCommand: CliCommand = {
  name: 'keys',
  summary: 'signing keys and the key-encryption secret: rotate, rotate-config',
  usage: ['keys rotate [--now | --delay <seconds>]', 'keys rotate-config'],
  description: 'Key management. A subcommand is required.',
  examples: ['platform keys rotate --now', 'platform keys rotate-config'],
  subcommands: [rotate, rotateConfig],
  async run(args) {
    const { positionals } = parse(args, {}, { positionals: 1, command: 'keys' });
    throw new UsageError(
      positionals[0] === undefined
        ? 'keys needs a subcommand: keys rotate [--now | --delay <seconds>], or keys rotate-config'
        : `unknown keys subcommand "${positionals[0]}"`,
      'keys',
    );
  },
};
