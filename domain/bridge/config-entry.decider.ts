import { assertNever, type Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';
import { streamName } from '../core/stream-name.ts';
import { bridgeError } from './bridge.errors.ts';
import type { Violation } from './violation.ts';

/**
 * An entry of the configuration center (the spec's per-tenant key/value store that ENV_PARAM parameters,
 * the environment-variable conversion and connections read): `configEntry-<tenant>.<key>`.
 *
 * Keys are dot-separated segments of letters, digits, `_` and `-` (`alert.token`, `mail.sender-account`),
 * at most 128 characters. Values are strings (at most 64 KiB). A secret entry's value is never shown by
 * the admin API and never reaches a read model; it reaches the log sealed (encrypted in commands/ before
 * the decider sees it; entries of earlier versions may hold it in clear until `platform keys
 * rotate-config`). Setting a value without saying `secret` keeps the entry's current flag, so a secret is only
 * unmasked by an explicit `secret: false`.
 */
export const CONFIG_KEY = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;
export const MAX_CONFIG_KEY_LENGTH = 128;
export const MAX_CONFIG_VALUE_LENGTH = 64 * 1024;
/**
 * A secret value is stored sealed (commands/core/secret.box.ts: `enc:v2:<kid>.<salt>.<iv>.<tag>.<ciphertext>`,
 * base64url): its clear value is held to MAX_CONFIG_VALUE_LENGTH before sealing, the sealed form to this.
 */
export const MAX_SEALED_CONFIG_VALUE_LENGTH = 4 * MAX_CONFIG_VALUE_LENGTH + 256;
const SEALED_VALUE = /^enc:v2:[A-Za-z0-9_.-]+$/;

export const isConfigKey = (key: unknown): key is string =>
  typeof key === 'string' && key.length <= MAX_CONFIG_KEY_LENGTH && CONFIG_KEY.test(key);

export const configEntryStream = (tenant: string, key: string): string => streamName('configEntry', tenant, key);

export type ConfigEntryCommand =
  | { type: 'SetConfigValue'; tenant: string; key: string; value: string; secret?: boolean; now: string }
  | { type: 'RemoveConfigValue'; now: string };

export type ConfigValueSet = DomainEvent<
  'ConfigValueSet',
  { tenant: string; key: string; value: string; secret?: boolean; at: string }
>;
export type ConfigValueRemoved = DomainEvent<'ConfigValueRemoved', { tenant: string; key: string; at: string }>;
export type ConfigEntryEvent = ConfigValueSet | ConfigValueRemoved;

export const CONFIG_ENTRY_EVENT_TYPES: ReadonlyArray<ConfigEntryEvent['type']> = [
  'ConfigValueSet',
  'ConfigValueRemoved',
];

export type ConfigEntryState =
  | { status: 'none' }
  /** removed: `key` remembered so a later set needs no lookup */
  | { status: 'removed'; tenant: string; key: string; removedAt: string }
  | { status: 'set'; tenant: string; key: string; value: string; secret: boolean; updatedAt: string };

const invalidEntry = (violations: Violation[]): never => {
  throw bridgeError(
    'CONFIG.INVALID',
    `invalid configuration entry: ${violations.map((v) => `${v.field} ${v.message}`).join('; ')}`,
    violations,
  );
};

export const configEntryDecider: Decider<ConfigEntryCommand, ConfigEntryEvent, ConfigEntryState> = {
  initialState: () => ({ status: 'none' }),

  evolve(_state, event) {
    switch (event.type) {
      case 'ConfigValueSet': {
        const d = event.data;
        return {
          status: 'set',
          tenant: d.tenant,
          key: d.key,
          value: d.value,
          secret: d.secret === true,
          updatedAt: d.at,
        };
      }
      case 'ConfigValueRemoved':
        return { status: 'removed', tenant: event.data.tenant, key: event.data.key, removedAt: event.data.at };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'SetConfigValue': {
        const violations: Violation[] = [];
        if (!isConfigKey(command.key)) {
          violations.push({
            field: 'key',
            message: `must be dot-separated segments of letters, digits, _ and - (at most ${MAX_CONFIG_KEY_LENGTH} characters)`,
          });
        }
        const sealed =
          (command.secret ?? (state.status === 'set' && state.secret)) === true &&
          typeof command.value === 'string' &&
          SEALED_VALUE.test(command.value);
        if (
          typeof command.value !== 'string' ||
          command.value.length > (sealed ? MAX_SEALED_CONFIG_VALUE_LENGTH : MAX_CONFIG_VALUE_LENGTH)
        ) {
          violations.push({
            field: 'value',
            message: `must be a string of at most ${MAX_CONFIG_VALUE_LENGTH} characters`,
          });
        }
        if (command.secret !== undefined && typeof command.secret !== 'boolean')
          violations.push({ field: 'secret', message: 'must be a boolean' });
        if (violations.length > 0) invalidEntry(violations);
        const secret = command.secret ?? (state.status === 'set' ? state.secret : false);
        if (state.status === 'set' && state.value === command.value && state.secret === secret) return [];
        return [
          {
            type: 'ConfigValueSet',
            data: {
              tenant: command.tenant,
              key: command.key,
              value: command.value,
              ...(secret && { secret: true }),
              at: command.now,
            },
          },
        ];
      }
      case 'RemoveConfigValue': {
        if (state.status !== 'set') throw bridgeError('CONFIG.NOT_FOUND', 'no such configuration key');
        return [{ type: 'ConfigValueRemoved', data: { tenant: state.tenant, key: state.key, at: command.now } }];
      }
      default:
        return assertNever(command);
    }
  },
};
