import { assertNever, type Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';
import { streamName } from '../core/stream-name.ts';
import { TENANT_CODE } from '../core/tenant-code.ts';
import { bridgeError } from './bridge.errors.ts';
import { type Bus, type BusKind, PLATFORM_TENANT } from './model.ts';

/**
 * An event bus (spec "Bus types"). Stream `bus-<owner>.<name>`: platform and baseline buses belong to the
 * `platform` tenant, a custom bus to the tenant that created it.
 *
 * Naming makes `eventBusName` resolve without a search: the names `platform`, `platform-*` (the platform
 * bus family) and `baseline-*` (baseline buses) are reserved for the platform's own buses, of the matching
 * kind; every other name is a custom bus of the caller's tenant (unique per tenant; two tenants may both
 * have an `orders` bus). A caller may also qualify a name as `<tenant>/<name>` (the bus's "ARN"), which is
 * how another tenant's bus is named (and refused, 403).
 */
export const BUS_CATEGORY = 'bus';
export const BUS_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const MAX_DESCRIPTION = 500;

export const busStream = (tenant: string, name: string): string => streamName(BUS_CATEGORY, tenant, name);

/** The kind a name is reserved for; 'custom' when it is not reserved. Case-insensitive, so `Platform` is taken too. */
export function reservedKind(name: string): BusKind {
  if (/^platform(-|$)/i.test(name)) return 'platform';
  if (/^baseline-/i.test(name)) return 'baseline';
  return 'custom';
}

/** A bus name as the caller wrote it, resolved to its owner: reserved names are the platform's. */
export type BusRef = { tenant: string; name: string };

/**
 * `orders` → the caller's bus; `platform`, `baseline-claim` → the platform's; `acme/orders` → tenant acme's.
 * null when the reference is malformed (the caller gets a 404 for it: no bus can have that name).
 */
export function resolveBusRef(eventBusName: string, callerTenant: string): BusRef | null {
  const slash = eventBusName.indexOf('/');
  const tenant = slash < 0 ? undefined : eventBusName.slice(0, slash);
  const name = slash < 0 ? eventBusName : eventBusName.slice(slash + 1);
  if (!BUS_NAME.test(name)) return null;
  const reserved = reservedKind(name) !== 'custom';
  if (tenant === undefined) return { tenant: reserved ? PLATFORM_TENANT : callerTenant, name };
  if (!TENANT_CODE.test(tenant)) return null;
  // a reserved name exists only on the platform tenant: `acme/platform` names nothing
  if (reserved && tenant !== PLATFORM_TENANT) return null;
  return { tenant, name };
}

export type BusCommand =
  | {
      type: 'CreateBus';
      name: string;
      kind: BusKind;
      tenant: string;
      description?: string;
      actorTenant: string;
      now: string;
    }
  | { type: 'DeleteBus'; actorTenant: string; now: string };

export type BusCreated = DomainEvent<'BusCreated', Bus & { createdAt: string }>;
export type BusDeleted = DomainEvent<'BusDeleted', { name: string; tenant: string; kind: BusKind; deletedAt: string }>;
export type BusEvent = BusCreated | BusDeleted;
export const BUS_EVENT_TYPES: ReadonlyArray<BusEvent['type']> = ['BusCreated', 'BusDeleted'];

export type BusState =
  | { status: 'none' }
  | { status: 'active'; bus: Bus; createdAt: string }
  | { status: 'deleted'; bus: Bus; createdAt: string; deletedAt: string };

const invalidBus = (field: string, message: string) =>
  bridgeError('BUS.INVALID', `invalid bus: ${field} ${message}`, [{ field, message }]);

/** platform and baseline buses are the platform's: no tenant creates, changes or deletes them */
const checkOwner = (bus: Pick<Bus, 'kind' | 'tenant' | 'name'>, actorTenant: string) => {
  if (actorTenant === PLATFORM_TENANT) return;
  if (bus.kind !== 'custom') {
    throw bridgeError(
      'BUS.FORBIDDEN',
      `the ${bus.kind} bus ${bus.name} is pre-set by the platform and cannot be changed by tenants`,
      {
        bus: bus.name,
      },
    );
  }
  if (bus.tenant !== actorTenant)
    throw bridgeError('BUS.FORBIDDEN', `bus ${bus.name} belongs to another tenant`, { bus: bus.name });
};

export const busDecider: Decider<BusCommand, BusEvent, BusState> = {
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    switch (event.type) {
      case 'BusCreated': {
        const { createdAt, ...bus } = event.data;
        return { status: 'active', bus, createdAt };
      }
      case 'BusDeleted':
        return state.status === 'active'
          ? { status: 'deleted', bus: state.bus, createdAt: state.createdAt, deletedAt: event.data.deletedAt }
          : state;
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'CreateBus': {
        const { name, kind, tenant, description, actorTenant, now } = command;
        if (!BUS_NAME.test(name))
          throw invalidBus('name', 'must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit');
        if (description !== undefined && description.length > MAX_DESCRIPTION)
          throw invalidBus('description', `must be at most ${MAX_DESCRIPTION} characters`);
        const reserved = reservedKind(name);
        if (kind === 'custom' && reserved !== 'custom') {
          throw bridgeError('BUS.NAME_RESERVED', `the name ${name} is reserved for the platform's ${reserved} buses`, [
            { field: 'name', message: `is reserved (${reserved} buses)` },
          ]);
        }
        if (kind !== 'custom' && reserved !== kind) {
          throw invalidBus(
            'name',
            kind === 'platform'
              ? 'of a platform bus must be "platform" or start with "platform-"'
              : 'of a baseline bus must start with "baseline-"',
          );
        }
        if (kind !== 'custom' && tenant !== PLATFORM_TENANT)
          throw invalidBus('tenant', `of a ${kind} bus must be ${PLATFORM_TENANT}`);
        checkOwner({ kind, tenant, name }, actorTenant);
        if (state.status === 'active') throw bridgeError('BUS.EXISTS', `bus ${name} exists`, { bus: name });
        return [
          {
            type: 'BusCreated',
            data: { name, kind, tenant, ...(description !== undefined && { description }), createdAt: now },
          },
        ];
      }
      case 'DeleteBus': {
        if (state.status !== 'active') throw bridgeError('BUS.NOT_FOUND', 'no such bus');
        checkOwner(state.bus, command.actorTenant);
        const { name, tenant, kind } = state.bus;
        return [{ type: 'BusDeleted', data: { name, tenant, kind, deletedAt: command.now } }];
      }
      default:
        return assertNever(command);
    }
  },
};
