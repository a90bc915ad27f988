import { assertNever, type Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';
import { streamName } from '../core/stream-name.ts';
import { identityError } from './identity.errors.ts';

/**
 * Username uniqueness per (tenant, directory, username), atomically: one reservation stream per username,
 * `username-<tenant>.<directory>/<username in lower case>`. The first `UsernameReserved` is appended with
 * `no_stream`, so of two concurrent registrations exactly one wins and the other re-reads and is refused.
 *
 * The reservation names the user id it belongs to. Registration reserves first and then creates the user
 * stream (with `no_stream`); the user id is derived from the command id, so a retry of the same command
 * finds its own reservation and completes the user. A reservation whose user never got written (the
 * process died between the two appends and nobody retried) can be reclaimed by another registration once
 * RESERVATION_GRACE_MS has passed: the command then names the holder it has seen to be missing
 * (`reclaimFrom`), and the decider accepts only if that is still the holder.
 */
export const RESERVATION_GRACE_MS = 5 * 60 * 1000;

/** Usernames are unique and looked up case-insensitively (`Ann` and `ann` are the same user). */
export const usernameKey = (username: string): string => username.normalize('NFKC').toLowerCase();

export const usernameStream = (tenant: string, directory: string, username: string): string =>
  streamName('username', tenant, `${directory}/${usernameKey(username)}`);

export type UsernameCommand = {
  type: 'ReserveUsername';
  tenant: string;
  directory: string;
  username: string;
  userId: string;
  now: string;
  /** the current holder, seen by the caller to own no user with this username (a stranded reservation) */
  reclaimFrom?: string;
};

export type UsernameReserved = DomainEvent<
  'UsernameReserved',
  { tenant: string; directory: string; username: string; userId: string; reservedAt: string; reclaimedFrom?: string }
>;
export type UsernameEvent = UsernameReserved;

export const USERNAME_EVENT_TYPES: ReadonlyArray<UsernameEvent['type']> = ['UsernameReserved'];

export type UsernameState =
  | { status: 'free' }
  | { status: 'reserved'; userId: string; username: string; reservedAt: string };

export const usernameDecider: Decider<UsernameCommand, UsernameEvent, UsernameState> = {
  initialState: () => ({ status: 'free' }),

  evolve(_state, event) {
    switch (event.type) {
      case 'UsernameReserved':
        return {
          status: 'reserved',
          userId: event.data.userId,
          username: event.data.username,
          reservedAt: event.data.reservedAt,
        };
      default:
        return assertNever(event.type);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'ReserveUsername': {
        const reserved: UsernameReserved = {
          type: 'UsernameReserved',
          data: {
            tenant: command.tenant,
            directory: command.directory,
            username: command.username,
            userId: command.userId,
            reservedAt: command.now,
          },
        };
        if (state.status === 'free') return [reserved];
        // the same user again (a retried registration): already done
        if (state.userId === command.userId) return [];
        const stranded =
          command.reclaimFrom !== undefined &&
          command.reclaimFrom === state.userId &&
          Date.parse(command.now) - Date.parse(state.reservedAt) >= RESERVATION_GRACE_MS;
        if (stranded) return [{ ...reserved, data: { ...reserved.data, reclaimedFrom: state.userId } }];
        throw identityError('USER.USERNAME_TAKEN', `username ${command.username} is already taken`, [
          { field: 'username', message: 'is already taken' },
        ]);
      }
      default:
        return assertNever(command.type);
    }
  },
};
