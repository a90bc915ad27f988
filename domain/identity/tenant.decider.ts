import { assertNever, type Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';
import { streamName } from '../core/stream-name.ts';
import { TENANT_CODE } from '../core/tenant-code.ts';
import { identityError } from './identity.errors.ts';
import { PLATFORM_TENANT, type Tenant } from './model.ts';

/**
 * A tenant: code, name, access token lifetime (the spec's "expires_in … configurable per tenant") and the
 * support mail group the bridge's TENANT_PROFILE target mails. Tenants are looked up by code alone, so
 * their streams use the `platform` tenant segment: `tenant-platform.<code>`.
 */
export { TENANT_CODE };
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 7200;
export const MAX_TOKEN_LIFETIME_SECONDS = 31 * 86400;
const MAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;
const MAX_NAME = 200;

export const tenantStream = (code: string): string => streamName('tenant', PLATFORM_TENANT, code);

export type TenantCommand =
  | {
      type: 'CreateTenant';
      code: string;
      name: string;
      tokenLifetimeSeconds: number;
      supportMailGroup?: string;
      now: string;
    }
  | {
      type: 'UpdateTenant';
      name?: string;
      tokenLifetimeSeconds?: number;
      /** null clears it */
      supportMailGroup?: string | null;
      now: string;
    };

export type TenantCreated = DomainEvent<
  'TenantCreated',
  { code: string; name: string; tokenLifetimeSeconds: number; supportMailGroup?: string; createdAt: string }
>;
export type TenantUpdated = DomainEvent<
  'TenantUpdated',
  {
    code: string;
    /** only the fields that changed; supportMailGroup null = cleared */
    changes: { name?: string; tokenLifetimeSeconds?: number; supportMailGroup?: string | null };
    updatedAt: string;
  }
>;
export type TenantEvent = TenantCreated | TenantUpdated;

export type TenantState =
  | { status: 'none' }
  | { status: 'exists'; tenant: Tenant; createdAt: string; updatedAt: string };

export const TENANT_EVENT_TYPES: ReadonlyArray<TenantEvent['type']> = ['TenantCreated', 'TenantUpdated'];

type Problem = { field: string; message: string };

const rejectFields = (problems: Problem[]): never => {
  throw identityError(
    'TENANT.INVALID',
    `invalid tenant: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`,
    problems,
  );
};

function check(fields: {
  code?: string;
  name?: string;
  tokenLifetimeSeconds?: number;
  supportMailGroup?: string | null;
}): Problem[] {
  const problems: Problem[] = [];
  if (fields.code !== undefined && !TENANT_CODE.test(fields.code)) {
    problems.push({
      field: 'code',
      message: 'must be 1-63 lower-case letters, digits, _ or -, starting with a letter or digit',
    });
  }
  if (fields.name !== undefined && (fields.name.trim().length === 0 || fields.name.length > MAX_NAME)) {
    problems.push({ field: 'name', message: `must be 1-${MAX_NAME} characters, not blank` });
  }
  const ttl = fields.tokenLifetimeSeconds;
  if (ttl !== undefined && (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_TOKEN_LIFETIME_SECONDS)) {
    problems.push({
      field: 'token_lifetime_seconds',
      message: `must be an integer from 1 to ${MAX_TOKEN_LIFETIME_SECONDS}`,
    });
  }
  const mail = fields.supportMailGroup;
  if (mail !== undefined && mail !== null && !MAIL.test(mail)) {
    problems.push({ field: 'support_mail_group', message: 'must be a mail address' });
  }
  return problems;
}

export const tenantDecider: Decider<TenantCommand, TenantEvent, TenantState> = {
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    switch (event.type) {
      case 'TenantCreated': {
        const d = event.data;
        const tenant: Tenant = {
          code: d.code,
          name: d.name,
          tokenLifetimeSeconds: d.tokenLifetimeSeconds,
          ...(d.supportMailGroup !== undefined && { supportMailGroup: d.supportMailGroup }),
          status: 'active',
        };
        return { status: 'exists', tenant, createdAt: d.createdAt, updatedAt: d.createdAt };
      }
      case 'TenantUpdated': {
        if (state.status === 'none') return state;
        const { name, tokenLifetimeSeconds, supportMailGroup } = event.data.changes;
        const tenant: Tenant = { ...state.tenant };
        if (name !== undefined) tenant.name = name;
        if (tokenLifetimeSeconds !== undefined) tenant.tokenLifetimeSeconds = tokenLifetimeSeconds;
        if (supportMailGroup === null) delete tenant.supportMailGroup;
        else if (supportMailGroup !== undefined) tenant.supportMailGroup = supportMailGroup;
        return { ...state, tenant, updatedAt: event.data.updatedAt };
      }
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'CreateTenant': {
        if (state.status !== 'none') {
          throw identityError('TENANT.ALREADY_EXISTS', `tenant ${state.tenant.code} already exists`, {
            code: state.tenant.code,
          });
        }
        const problems = check(command);
        if (problems.length > 0) rejectFields(problems);
        return [
          {
            type: 'TenantCreated',
            data: {
              code: command.code,
              name: command.name.trim(),
              tokenLifetimeSeconds: command.tokenLifetimeSeconds,
              ...(command.supportMailGroup !== undefined && { supportMailGroup: command.supportMailGroup }),
              createdAt: command.now,
            },
          },
        ];
      }
      case 'UpdateTenant': {
        if (state.status === 'none') throw identityError('TENANT.NOT_FOUND', 'no such tenant');
        const problems = check(command);
        if (problems.length > 0) rejectFields(problems);
        const current = state.tenant;
        const changes: TenantUpdated['data']['changes'] = {};
        if (command.name !== undefined && command.name.trim() !== current.name) changes.name = command.name.trim();
        if (
          command.tokenLifetimeSeconds !== undefined &&
          command.tokenLifetimeSeconds !== current.tokenLifetimeSeconds
        ) {
          changes.tokenLifetimeSeconds = command.tokenLifetimeSeconds;
        }
        if (command.supportMailGroup === null && current.supportMailGroup !== undefined)
          changes.supportMailGroup = null;
        if (typeof command.supportMailGroup === 'string' && command.supportMailGroup !== current.supportMailGroup) {
          changes.supportMailGroup = command.supportMailGroup;
        }
        // nothing changes: nothing to record (a PATCH that repeats the current values is a no-op)
        if (Object.keys(changes).length === 0) return [];
        return [{ type: 'TenantUpdated', data: { code: current.code, changes, updatedAt: command.now } }];
      }
      default:
        return assertNever(command);
    }
  },
};
