import type { Decider } from '../core/decider.ts';
import { type HubErrorCode, hubError, type Violation } from './hub.errors.ts';

/**
 * The shape every simple configuration resource shares (channels, templates, context definitions): one
 * stream per resource, created, updated (the whole resource: the admin API's PUT), deleted. A save whose
 * content equals the stored one appends nothing. A deleted resource may be created again (a code reused).
 */
export type ResourceEvent<Saved extends string, Deleted extends string, T> =
  | { type: Saved; data: { Resource: T; Created: boolean; At: string } }
  | { type: Deleted; data: { Id: string; At: string } };

export type ResourceCommand<T> =
  | { type: 'Create'; resource: T; now: string }
  | { type: 'Update'; resource: T; now: string }
  | { type: 'Delete'; now: string };

export type ResourceState<T> =
  | { status: 'none' }
  | { status: 'live'; resource: T; createdAt: string; updatedAt: string }
  | { status: 'deleted'; resource: T; createdAt: string; updatedAt: string };

export type ResourceKind<Saved extends string, Deleted extends string, T> = {
  saved: Saved;
  deleted: Deleted;
  idOf(resource: T): string;
  check(resource: T): Violation[];
  codes: { invalid: HubErrorCode; notFound: HubErrorCode; exists: HubErrorCode };
  /** what the resource is called in messages (`channel`, `template`) */
  noun: string;
};

/** canonical JSON (sorted keys): equal content, equal text */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function resourceDecider<Saved extends string, Deleted extends string, T>(
  kind: ResourceKind<Saved, Deleted, T>,
): Decider<ResourceCommand<T>, ResourceEvent<Saved, Deleted, T>, ResourceState<T>> {
  type E = ResourceEvent<Saved, Deleted, T>;
  const validate = (resource: T) => {
    const violations = kind.check(resource);
    if (violations.length > 0) {
      throw hubError(
        kind.codes.invalid,
        `invalid ${kind.noun}: ${violations.map((v) => `${v.field} ${v.message}`).join('; ')}`,
        violations,
      );
    }
  };
  return {
    initialState: () => ({ status: 'none' }),
    evolve(state, event) {
      if (event.type === kind.saved) {
        const d = event.data as { Resource: T; Created: boolean; At: string };
        return {
          status: 'live',
          resource: d.Resource,
          createdAt: state.status === 'live' ? state.createdAt : d.At,
          updatedAt: d.At,
        };
      }
      if (state.status === 'none') return state;
      return { ...state, status: 'deleted', updatedAt: (event.data as { At: string }).At };
    },
    decide(command, state) {
      switch (command.type) {
        case 'Create':
          validate(command.resource);
          if (state.status === 'live') {
            throw hubError(kind.codes.exists, `${kind.noun} ${kind.idOf(command.resource)} exists already`, {
              id: kind.idOf(command.resource),
            });
          }
          return [{ type: kind.saved, data: { Resource: command.resource, Created: true, At: command.now } } as E];
        case 'Update':
          if (state.status !== 'live')
            throw hubError(kind.codes.notFound, `no such ${kind.noun}`, { id: kind.idOf(command.resource) });
          validate(command.resource);
          if (canonicalJson(state.resource) === canonicalJson(command.resource)) return [];
          return [{ type: kind.saved, data: { Resource: command.resource, Created: false, At: command.now } } as E];
        case 'Delete':
          if (state.status !== 'live') throw hubError(kind.codes.notFound, `no such ${kind.noun}`);
          return [{ type: kind.deleted, data: { Id: kind.idOf(state.resource), At: command.now } } as E];
      }
    },
  };
}
