import { assertNever, type Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';
import { isSealed, type SealedSecret } from '../core/sealed-secret.ts';
import { streamName } from '../core/stream-name.ts';
import { bridgeError } from './bridge.errors.ts';
import { CONNECTION_NAME, MAX_DESCRIPTION } from './connection.decider.ts';
import { checkUrlTemplate, type UrlTemplate } from './destination-url.ts';
import type { Violation } from './violation.ts';

/**
 * An API destination (spec "API destination target" and "Integration"): a named HTTP endpoint that rules
 * share, `apiDestination-<tenant>.<name>`. A rule's API destination target names it with its NAME
 * parameter; the target's HEADER_PARAMS, BODY_PARAMS and QUERY_STRING_PARAMS are per rule.
 *
 * - urlTemplate: {url, variables} (see destination-url.ts: `${name}` from JSONPaths, configuration keys
 *   or constants);
 * - method: GET POST PUT PATCH DELETE HEAD (GET and HEAD send no body);
 * - connection: the connection whose authentication is used (optional: a public endpoint needs none);
 *   the command handler checks it exists when the destination is created or re-pointed;
 * - timeoutMs: an optional shorter per-call timeout (100 ms to the delivery's own, which is 5 s by the
 *   spec's Limits: the lower of the two applies).
 *
 * Rules name destinations by name; a destination deleted while rules still name it makes their
 * deliveries fail without retry (the message goes to the tolerance rule: dead letters or discarded).
 *
 * Signing (Standard Webhooks): every destination has a signing secret, generated and sealed by the
 * command handler at creation (the decider only ever sees it sealed, as connection secrets) and shown to
 * the administrator once. A rotation replaces it; the previous one keeps signing beside it until
 * `previousValidUntil` (the overlap: receivers switch secrets without losing a message), then only the new
 * one signs. A second rotation within the overlap ends the first one's previous secret at once. A
 * destination recorded before signing existed has no secret (its deliveries are unsigned) until rotated.
 */
export const API_DESTINATION_CATEGORY = 'apiDestination';
export const DESTINATION_NAME = CONNECTION_NAME;
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;
export type HttpMethodName = (typeof HTTP_METHODS)[number];
export const MIN_TIMEOUT_MS = 100;
export const MAX_TIMEOUT_MS = 60_000;
/** how long the previous signing secret keeps signing after a rotation, by default and at most */
export const DEFAULT_SIGNING_OVERLAP_SECONDS = 24 * 3600;
export const MAX_SIGNING_OVERLAP_SECONDS = 7 * 24 * 3600;

export const apiDestinationStream = (tenant: string, name: string): string =>
  streamName(API_DESTINATION_CATEGORY, tenant, name);

export type ApiDestination = {
  tenant: string;
  name: string;
  description?: string;
  urlTemplate: UrlTemplate;
  method: HttpMethodName;
  connection?: string;
  timeoutMs?: number;
};

export type DestinationDefinition = Omit<ApiDestination, 'tenant' | 'name'>;

/** The signing secrets, sealed: the current one, and the previous one during a rotation's overlap. */
export type SigningSecrets = {
  current: SealedSecret;
  previous?: { secret: SealedSecret; validUntil: string };
};

export type ApiDestinationCommand =
  | ({
      type: 'CreateApiDestination';
      tenant: string;
      name: string;
      /** the sealed signing secret (commands/ generates and seals it) */
      signingSecret?: SealedSecret;
      now: string;
    } & DestinationDefinition)
  | {
      type: 'UpdateApiDestination';
      /** only what is given changes; null removes description, connection, timeoutMs */
      changes: {
        description?: string | null;
        urlTemplate?: UrlTemplate;
        method?: HttpMethodName;
        connection?: string | null;
        timeoutMs?: number | null;
      };
      now: string;
    }
  | { type: 'DeleteApiDestination'; now: string }
  /** a new sealed signing secret; the current one keeps signing for overlapSeconds (0: stops at once) */
  | { type: 'RotateApiDestinationSigningSecret'; secret: SealedSecret; overlapSeconds: number; now: string };

export type ApiDestinationCreated = DomainEvent<
  'ApiDestinationCreated',
  { destination: ApiDestination; createdAt: string; signingSecret?: SealedSecret }
>;
/** the destination as it is after the update */
export type ApiDestinationUpdated = DomainEvent<
  'ApiDestinationUpdated',
  { destination: ApiDestination; updatedAt: string }
>;
export type ApiDestinationDeleted = DomainEvent<'ApiDestinationDeleted', { tenant: string; name: string; at: string }>;
/** the new sealed secret; the one it replaces signs too until previousValidUntil (null: not at all) */
export type ApiDestinationSigningSecretRotated = DomainEvent<
  'ApiDestinationSigningSecretRotated',
  { tenant: string; name: string; secret: SealedSecret; previousValidUntil: string | null; at: string }
>;
export type ApiDestinationEvent =
  | ApiDestinationCreated
  | ApiDestinationUpdated
  | ApiDestinationDeleted
  | ApiDestinationSigningSecretRotated;
export const API_DESTINATION_EVENT_TYPES: ReadonlyArray<ApiDestinationEvent['type']> = [
  'ApiDestinationCreated',
  'ApiDestinationUpdated',
  'ApiDestinationDeleted',
  'ApiDestinationSigningSecretRotated',
];

export type ApiDestinationState =
  | { status: 'none' }
  | { status: 'deleted'; tenant: string; name: string; deletedAt: string }
  | { status: 'exists'; destination: ApiDestination; createdAt: string; updatedAt: string; signing?: SigningSecrets };

const invalid = (violations: Violation[]): never => {
  throw bridgeError(
    'API_DESTINATION.INVALID',
    `invalid API destination: ${violations.map((v) => `${v.field} ${v.message}`).join('; ')}`,
    violations,
  );
};

/** Violations of a whole definition (each field named). */
export function checkDestination(d: Partial<ApiDestination>): Violation[] {
  const v: Violation[] = [];
  if (d.name !== undefined && !DESTINATION_NAME.test(d.name))
    v.push({ field: 'name', message: 'must be 1-64 letters, digits, _ or -, starting with a letter or digit' });
  if (d.description !== undefined && (typeof d.description !== 'string' || d.description.length > MAX_DESCRIPTION)) {
    v.push({ field: 'description', message: `must be a string of at most ${MAX_DESCRIPTION} characters` });
  }
  v.push(...checkUrlTemplate(d.urlTemplate));
  if (!HTTP_METHODS.includes(d.method as HttpMethodName))
    v.push({ field: 'method', message: `must be one of ${HTTP_METHODS.join(', ')}` });
  if (d.connection !== undefined && (typeof d.connection !== 'string' || !CONNECTION_NAME.test(d.connection))) {
    v.push({ field: 'connection', message: 'must be a connection name' });
  }
  if (
    d.timeoutMs !== undefined &&
    (!Number.isInteger(d.timeoutMs) || d.timeoutMs < MIN_TIMEOUT_MS || d.timeoutMs > MAX_TIMEOUT_MS)
  ) {
    v.push({ field: 'timeoutMs', message: `must be an integer from ${MIN_TIMEOUT_MS} to ${MAX_TIMEOUT_MS}` });
  }
  return v;
}

const normalized = (t: UrlTemplate): UrlTemplate => ({ url: t.url, variables: t.variables ?? {} });

export const apiDestinationDecider: Decider<ApiDestinationCommand, ApiDestinationEvent, ApiDestinationState> = {
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    switch (event.type) {
      case 'ApiDestinationCreated': {
        const d = event.data;
        return {
          status: 'exists',
          destination: d.destination,
          createdAt: d.createdAt,
          updatedAt: d.createdAt,
          ...(d.signingSecret !== undefined && { signing: { current: d.signingSecret } }),
        };
      }
      case 'ApiDestinationUpdated':
        return state.status === 'exists'
          ? { ...state, destination: event.data.destination, updatedAt: event.data.updatedAt }
          : state;
      case 'ApiDestinationSigningSecretRotated': {
        if (state.status !== 'exists') return state;
        const { secret, previousValidUntil } = event.data;
        const current = state.signing?.current;
        const previous =
          current !== undefined && previousValidUntil !== null
            ? { previous: { secret: current, validUntil: previousValidUntil } }
            : {};
        return { ...state, signing: { current: secret, ...previous } };
      }
      case 'ApiDestinationDeleted':
        return { status: 'deleted', tenant: event.data.tenant, name: event.data.name, deletedAt: event.data.at };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'CreateApiDestination': {
        if (state.status === 'exists')
          throw bridgeError('API_DESTINATION.EXISTS', `an API destination named ${command.name} exists`, {
            name: command.name,
          });
        const { type: _t, now, signingSecret, ...fields } = command;
        if (signingSecret !== undefined && !isSealed(signingSecret))
          throw new Error('an API destination signing secret reached the decider unsealed');
        const destination: ApiDestination = {
          tenant: fields.tenant,
          name: fields.name,
          ...(fields.description !== undefined && { description: fields.description }),
          urlTemplate: fields.urlTemplate,
          method: fields.method,
          ...(fields.connection !== undefined && { connection: fields.connection }),
          ...(fields.timeoutMs !== undefined && { timeoutMs: fields.timeoutMs }),
        };
        const v = checkDestination(destination);
        if (v.length > 0) invalid(v);
        return [
          {
            type: 'ApiDestinationCreated',
            data: {
              destination: { ...destination, urlTemplate: normalized(destination.urlTemplate) },
              createdAt: now,
              ...(signingSecret !== undefined && { signingSecret }),
            },
          },
        ];
      }
      case 'UpdateApiDestination': {
        if (state.status !== 'exists') throw bridgeError('API_DESTINATION.NOT_FOUND', 'no such API destination');
        const c = command.changes;
        const cur = state.destination;
        const pick = <K extends 'description' | 'connection' | 'timeoutMs'>(k: K): ApiDestination[K] | undefined =>
          c[k] === undefined ? cur[k] : c[k] === null ? undefined : (c[k] as ApiDestination[K]);
        const description = pick('description');
        const connection = pick('connection');
        const timeoutMs = pick('timeoutMs');
        const next: ApiDestination = {
          tenant: cur.tenant,
          name: cur.name,
          ...(description !== undefined && { description }),
          urlTemplate: c.urlTemplate ?? cur.urlTemplate,
          method: c.method ?? cur.method,
          ...(connection !== undefined && { connection }),
          ...(timeoutMs !== undefined && { timeoutMs }),
        };
        const v = checkDestination(next);
        if (v.length > 0) invalid(v);
        next.urlTemplate = normalized(next.urlTemplate);
        if (JSON.stringify(next) === JSON.stringify(cur)) return [];
        return [{ type: 'ApiDestinationUpdated', data: { destination: next, updatedAt: command.now } }];
      }
      case 'DeleteApiDestination':
        if (state.status !== 'exists') throw bridgeError('API_DESTINATION.NOT_FOUND', 'no such API destination');
        return [
          {
            type: 'ApiDestinationDeleted',
            data: { tenant: state.destination.tenant, name: state.destination.name, at: command.now },
          },
        ];
      case 'RotateApiDestinationSigningSecret': {
        if (state.status !== 'exists') throw bridgeError('API_DESTINATION.NOT_FOUND', 'no such API destination');
        if (!isSealed(command.secret))
          throw new Error('an API destination signing secret reached the decider unsealed');
        const overlap = command.overlapSeconds;
        if (!Number.isInteger(overlap) || overlap < 0 || overlap > MAX_SIGNING_OVERLAP_SECONDS) {
          invalid([
            { field: 'overlapSeconds', message: `must be an integer from 0 to ${MAX_SIGNING_OVERLAP_SECONDS}` },
          ]);
        }
        const previousValidUntil =
          state.signing !== undefined && overlap > 0
            ? new Date(Date.parse(command.now) + overlap * 1000).toISOString()
            : null;
        const { tenant, name } = state.destination;
        return [
          {
            type: 'ApiDestinationSigningSecretRotated',
            data: { tenant, name, secret: command.secret, previousValidUntil, at: command.now },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
