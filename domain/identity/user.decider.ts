import { assertNever, type Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';
import { streamName } from '../core/stream-name.ts';
import { identityError } from './identity.errors.ts';
import type { User } from './model.ts';

/**
 * A user of one tenant, in one user directory (`user_source_id`). Stream `user-<tenant>.<userId>`.
 * The password arrives already hashed (hashing happens in commands/, never here). Username uniqueness is
 * not this aggregate's job: the username reservation (username.decider.ts) holds it.
 */
export const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$/;
export const DIRECTORY_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** RFC 6749 3.3 scope-token: printable ASCII without space, `"` and `\` */
export const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]{1,128}$/;
export const USER_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;
const MAX_NAME = 200;
const MAX_ROLES = 50;

export const userStream = (tenant: string, userId: string): string => streamName('user', tenant, userId);

export type UserProfileChanges = {
  name?: string;
  /** null clears */
  nickname?: string | null;
  /** null clears */
  email?: string | null;
  roles?: string[];
};

export type UserCommand =
  | {
      type: 'RegisterUser';
      tenant: string;
      userId: string;
      directory: string;
      username: string;
      name: string;
      nickname?: string;
      email?: string;
      passwordHash: string;
      roles: string[];
      now: string;
    }
  | { type: 'UpdateUser'; changes: UserProfileChanges; now: string }
  | { type: 'DisableUser'; now: string }
  | { type: 'EnableUser'; now: string }
  | { type: 'ResetPassword'; passwordHash: string; now: string };

export type UserRegistered = DomainEvent<
  'UserRegistered',
  {
    tenant: string;
    userId: string;
    directory: string;
    username: string;
    name: string;
    nickname?: string;
    email?: string;
    /** scrypt hash; projections never copy it */
    passwordHash: string;
    roles: string[];
    registeredAt: string;
  }
>;
export type UserUpdated = DomainEvent<
  'UserUpdated',
  { tenant: string; userId: string; changes: UserProfileChanges; updatedAt: string }
>;
export type UserDisabled = DomainEvent<'UserDisabled', { tenant: string; userId: string; disabledAt: string }>;
export type UserEnabled = DomainEvent<'UserEnabled', { tenant: string; userId: string; enabledAt: string }>;
export type PasswordReset = DomainEvent<
  'PasswordReset',
  { tenant: string; userId: string; passwordHash: string; resetAt: string }
>;
export type UserEvent = UserRegistered | UserUpdated | UserDisabled | UserEnabled | PasswordReset;

export const USER_EVENT_TYPES: ReadonlyArray<UserEvent['type']> = [
  'UserRegistered',
  'UserUpdated',
  'UserDisabled',
  'UserEnabled',
  'PasswordReset',
];

export type UserState = { status: 'none' } | { status: 'exists'; user: User; registeredAt: string; updatedAt: string };

type Problem = { field: string; message: string };

const rejectFields = (problems: Problem[]): never => {
  throw identityError(
    'USER.INVALID',
    `invalid user: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`,
    problems,
  );
};

const notFound = () => identityError('USER.NOT_FOUND', 'no such user');

function checkProfile(fields: {
  name?: string;
  nickname?: string | null;
  email?: string | null;
  roles?: string[];
}): Problem[] {
  const problems: Problem[] = [];
  if (fields.name !== undefined && (fields.name.trim().length === 0 || fields.name.length > MAX_NAME)) {
    problems.push({ field: 'name', message: `must be 1-${MAX_NAME} characters, not blank` });
  }
  if (
    typeof fields.nickname === 'string' &&
    (fields.nickname.trim().length === 0 || fields.nickname.length > MAX_NAME)
  ) {
    problems.push({ field: 'nickname', message: `must be 1-${MAX_NAME} characters, not blank` });
  }
  if (typeof fields.email === 'string' && !EMAIL.test(fields.email))
    problems.push({ field: 'email', message: 'must be a mail address' });
  if (fields.roles !== undefined) {
    if (fields.roles.length > MAX_ROLES) problems.push({ field: 'roles', message: `at most ${MAX_ROLES} roles` });
    const bad = fields.roles.filter((r) => !SCOPE_TOKEN.test(r));
    if (bad.length > 0)
      problems.push({ field: 'roles', message: `not scope tokens: ${bad.map((r) => JSON.stringify(r)).join(', ')}` });
  }
  return problems;
}

const unique = (xs: string[]): string[] => [...new Set(xs)];
const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    if (event.type === 'UserRegistered') {
      const d = event.data;
      const user: User = {
        tenant: d.tenant,
        userId: d.userId,
        directory: d.directory,
        username: d.username,
        name: d.name,
        ...(d.nickname !== undefined && { nickname: d.nickname }),
        ...(d.email !== undefined && { email: d.email }),
        status: 'active',
        passwordHash: d.passwordHash,
        roles: d.roles,
      };
      return { status: 'exists', user, registeredAt: d.registeredAt, updatedAt: d.registeredAt };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'UserUpdated': {
        const { name, nickname, email, roles } = event.data.changes;
        const user: User = { ...state.user };
        if (name !== undefined) user.name = name;
        if (nickname === null) delete user.nickname;
        else if (nickname !== undefined) user.nickname = nickname;
        if (email === null) delete user.email;
        else if (email !== undefined) user.email = email;
        if (roles !== undefined) user.roles = roles;
        return { ...state, user, updatedAt: event.data.updatedAt };
      }
      case 'UserDisabled':
        return { ...state, user: { ...state.user, status: 'disabled' }, updatedAt: event.data.disabledAt };
      case 'UserEnabled':
        return { ...state, user: { ...state.user, status: 'active' }, updatedAt: event.data.enabledAt };
      case 'PasswordReset':
        return {
          ...state,
          user: { ...state.user, passwordHash: event.data.passwordHash },
          updatedAt: event.data.resetAt,
        };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'RegisterUser': {
        if (state.status !== 'none')
          throw identityError('USER.ALREADY_EXISTS', 'the user already exists', { userId: state.user.userId });
        const problems = checkProfile(command);
        if (!USER_ID.test(command.userId))
          problems.push({ field: 'user_id', message: 'must be 1-128 letters, digits, . _ : or -' });
        if (!USERNAME.test(command.username)) {
          problems.push({
            field: 'username',
            message: 'must be 1-128 letters, digits, . _ @ + or -, starting with a letter or digit',
          });
        }
        if (!DIRECTORY_ID.test(command.directory))
          problems.push({ field: 'user_source_id', message: 'must be 1-64 letters, digits, _ or -' });
        if (command.passwordHash.length === 0) problems.push({ field: 'password', message: 'is required' });
        if (problems.length > 0) rejectFields(problems);
        return [
          {
            type: 'UserRegistered',
            data: {
              tenant: command.tenant,
              userId: command.userId,
              directory: command.directory,
              username: command.username,
              name: command.name.trim(),
              ...(command.nickname !== undefined && { nickname: command.nickname.trim() }),
              ...(command.email !== undefined && { email: command.email }),
              passwordHash: command.passwordHash,
              roles: unique(command.roles),
              registeredAt: command.now,
            },
          },
        ];
      }
      case 'UpdateUser': {
        if (state.status === 'none') throw notFound();
        const problems = checkProfile(command.changes);
        if (problems.length > 0) rejectFields(problems);
        const { user } = state;
        const c = command.changes;
        const changes: UserProfileChanges = {};
        if (c.name !== undefined && c.name.trim() !== user.name) changes.name = c.name.trim();
        if (c.nickname === null && user.nickname !== undefined) changes.nickname = null;
        if (typeof c.nickname === 'string' && c.nickname.trim() !== user.nickname) changes.nickname = c.nickname.trim();
        if (c.email === null && user.email !== undefined) changes.email = null;
        if (typeof c.email === 'string' && c.email !== user.email) changes.email = c.email;
        if (c.roles !== undefined && !sameList(unique(c.roles), user.roles)) changes.roles = unique(c.roles);
        if (Object.keys(changes).length === 0) return [];
        return [
          { type: 'UserUpdated', data: { tenant: user.tenant, userId: user.userId, changes, updatedAt: command.now } },
        ];
      }
      case 'DisableUser':
        if (state.status === 'none') throw notFound();
        // disabling a disabled user changes nothing: answered, not rejected (a retried click is harmless)
        if (state.user.status === 'disabled') return [];
        return [
          {
            type: 'UserDisabled',
            data: { tenant: state.user.tenant, userId: state.user.userId, disabledAt: command.now },
          },
        ];
      case 'EnableUser':
        if (state.status === 'none') throw notFound();
        if (state.user.status === 'active') return [];
        return [
          {
            type: 'UserEnabled',
            data: { tenant: state.user.tenant, userId: state.user.userId, enabledAt: command.now },
          },
        ];
      case 'ResetPassword':
        if (state.status === 'none') throw notFound();
        if (command.passwordHash.length === 0) rejectFields([{ field: 'password', message: 'is required' }]);
        return [
          {
            type: 'PasswordReset',
            data: {
              tenant: state.user.tenant,
              userId: state.user.userId,
              passwordHash: command.passwordHash,
              resetAt: command.now,
            },
          },
        ];
      default:
        return assertNever(command);
    }
  },
};
