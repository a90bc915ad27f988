import { assertNever, type Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';
import { streamName } from '../core/stream-name.ts';
import { bridgeError } from './bridge.errors.ts';
import { RECEIVED_EVENT_PATH } from './bridge.paths.ts';
import type { Violation } from './violation.ts';

/**
 * An entry of the service registry: where the preset HTTP client target (TypeId 3)
 * delivers for a service name: `POST <baseUrl><receivePath>`. Stream `serviceEntry-<tenant>.<name>`.
 *
 * Entries are per tenant; the platform tenant's are the platform's, seen by every tenant (a tenant's own
 * entry of the same name comes first for its rules). `SERVICE_REGISTRY` seeds platform entries at start.
 * The target resolves the name at delivery time, so a changed URL needs no restart.
 */
export const SERVICE_ENTRY_CATEGORY = 'serviceEntry';
export const SERVICE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
export const RECEIVE_PATH = /^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]{0,511}$/;
const MAX_URL = 2000;

export const serviceEntryStream = (tenant: string, name: string): string =>
  streamName(SERVICE_ENTRY_CATEGORY, tenant, name);

export type ServiceEntry = { tenant: string; name: string; baseUrl: string; receivePath: string };

export type ServiceEntryCommand =
  | { type: 'SetServiceEntry'; tenant: string; name: string; baseUrl: string; receivePath?: string; now: string }
  | { type: 'RemoveServiceEntry'; now: string };

export type ServiceEntrySet = DomainEvent<'ServiceEntrySet', ServiceEntry & { at: string }>;
export type ServiceEntryRemoved = DomainEvent<'ServiceEntryRemoved', { tenant: string; name: string; at: string }>;
export type ServiceEntryEvent = ServiceEntrySet | ServiceEntryRemoved;
export const SERVICE_ENTRY_EVENT_TYPES: ReadonlyArray<ServiceEntryEvent['type']> = [
  'ServiceEntrySet',
  'ServiceEntryRemoved',
];

export type ServiceEntryState =
  | { status: 'none' }
  | { status: 'removed'; removedAt: string }
  | { status: 'set'; entry: ServiceEntry; updatedAt: string };

/** A base URL as the registry keeps it: http(s), no query, fragment or credentials, no trailing `/`. */
export function checkBaseUrl(raw: unknown): { ok: true; url: string } | { ok: false; message: string } {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_URL)
    return { ok: false, message: `must be a URL of at most ${MAX_URL} characters` };
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return { ok: false, message: 'is not a URL' };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { ok: false, message: 'must be http or https' };
  if (u.search !== '' || u.hash !== '' || u.username !== '' || u.password !== '')
    return { ok: false, message: 'must have no query, fragment or credentials' };
  return { ok: true, url: raw.replace(/\/+$/, '') };
}

const invalid = (violations: Violation[]): never => {
  throw bridgeError(
    'SERVICE.INVALID',
    `invalid service entry: ${violations.map((v) => `${v.field} ${v.message}`).join('; ')}`,
    violations,
  );
};

export const serviceEntryDecider: Decider<ServiceEntryCommand, ServiceEntryEvent, ServiceEntryState> = {
  initialState: () => ({ status: 'none' }),

  evolve(_state, event) {
    switch (event.type) {
      case 'ServiceEntrySet': {
        const { at, ...entry } = event.data;
        return { status: 'set', entry, updatedAt: at };
      }
      case 'ServiceEntryRemoved':
        return { status: 'removed', removedAt: event.data.at };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'SetServiceEntry': {
        const violations: Violation[] = [];
        if (!SERVICE_NAME.test(command.name))
          violations.push({
            field: 'name',
            message: 'must be 1-128 letters, digits, . _ or -, starting with a letter or digit',
          });
        const url = checkBaseUrl(command.baseUrl);
        if (!url.ok) violations.push({ field: 'baseUrl', message: url.message });
        const receivePath = command.receivePath ?? RECEIVED_EVENT_PATH;
        if (!RECEIVE_PATH.test(receivePath))
          violations.push({
            field: 'receivePath',
            message: 'must be a path starting with / (no query or fragment), at most 512 characters',
          });
        if (violations.length > 0 || !url.ok) return invalid(violations);
        const entry: ServiceEntry = { tenant: command.tenant, name: command.name, baseUrl: url.url, receivePath };
        if (
          state.status === 'set' &&
          state.entry.baseUrl === entry.baseUrl &&
          state.entry.receivePath === entry.receivePath
        )
          return [];
        return [{ type: 'ServiceEntrySet', data: { ...entry, at: command.now } }];
      }
      case 'RemoveServiceEntry':
        if (state.status !== 'set') throw bridgeError('SERVICE.NOT_FOUND', 'no such service in the registry');
        return [
          {
            type: 'ServiceEntryRemoved',
            data: { tenant: state.entry.tenant, name: state.entry.name, at: command.now },
          },
        ];
      default:
        return assertNever(command);
    }
  },
};
