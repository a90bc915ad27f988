import { createHash } from 'node:crypto';
import { createLocalJWKSet, decodeJwt, type JSONWebKeySet, errors as joseErrors, jwtVerify } from 'jose';
import type { AuthMethod, Client } from '../../domain/identity/model.ts';
import { PLATFORM_TENANT } from '../../domain/identity/model.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { isWrongExpectedRevision } from '../../infra/core/store-errors.ts';
import { envelopesFor } from '../core/envelopes.ts';
import { newCommandId } from '../core/event-id.ts';
import type { Directory } from './identity.contracts.ts';
import { OAuthError } from './oauth.error.ts';

/**
 * Client authentication at the token endpoint (and introspection, revocation, exchange codes), as a list
 * of tiny named steps in node-oidc-provider's manner: the request says which method it uses by what it
 * carries, exactly one method may be used (RFC 6749 2.3), and the client must be registered with it.
 */
export const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** Single use of private_key_jwt assertions: one stream per (client, jti), appended with no_stream. */
export const CLIENT_ASSERTION_CATEGORY = 'clientAssertion';

/** What client authentication reads of a request; an express Request fits. */
export type ClientAuthRequest = {
  headers: { authorization?: string | undefined };
  body?: unknown;
};

export type AuthenticatedClient = { client: Client; method: AuthMethod };

/** The credentials a request presents, before any lookup. */
type Presented = {
  basic?: { clientId: string; secret: string };
  /** client_id from the form body */
  bodyClientId?: string;
  bodySecret?: string;
  assertion?: { type: string | undefined; jwt: string };
};

type Step = {
  name: AuthMethod;
  /** does the request use this method? */
  applies(p: Presented): boolean;
  /** authenticates or throws invalid_client */
  run(p: Presented): Promise<Client>;
};

/** The authenticator's own names for what it needs; the composition passes the real ones in. */
export type ClientAuthDeps = {
  directory: Pick<Directory, 'getClient' | 'verifyClientSecret'>;
  eventStore: EventStore;
  clock: Clock;
  issuer: string;
  /** audiences accepted in client assertions besides the issuer (the token endpoint URL, …) */
  endpoints: string[];
  /** assertion algorithms accepted (default: RS/PS/ES 256-512 and EdDSA) */
  algorithms?: string[];
  /** seconds of clock skew allowed on assertions (default 5) */
  clockToleranceSeconds?: number;
};

const BASIC_CHALLENGE = { 'WWW-Authenticate': 'Basic realm="platform"' };
const failed = (description: string, basic: boolean) =>
  new OAuthError('invalid_client', description, basic ? { headers: BASIC_CHALLENGE } : {});

const str = (body: Record<string, unknown>, name: string): string | undefined => {
  const v = body[name];
  if (v === undefined) return undefined;
  // a parameter sent twice arrives as an array: RFC 6749 3.2 forbids repeating parameters
  if (typeof v !== 'string') throw new OAuthError('invalid_request', `${name} must be given once`);
  return v;
};

/** application/x-www-form-urlencoded decoding of one component (RFC 6749 2.3.1, appendix B). */
const formDecode = (s: string): string => decodeURIComponent(s.replace(/\+/g, ' '));

export function parseBasic(header: string): { clientId: string; secret: string } {
  const m = /^Basic ([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!m) throw failed('malformed Basic authorization header', true);
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw failed('malformed Basic authorization header', true);
  try {
    const clientId = formDecode(decoded.slice(0, colon));
    const secret = formDecode(decoded.slice(colon + 1));
    if (clientId === '') throw new Error('empty client id');
    return { clientId, secret };
  } catch {
    throw failed('malformed Basic authorization header', true);
  }
}

function presented(req: ClientAuthRequest): Presented {
  const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<string, unknown>;
  const p: Presented = {};
  const auth = req.headers.authorization;
  if (auth !== undefined && /^basic\b/i.test(auth)) p.basic = parseBasic(auth);
  const clientId = str(body, 'client_id');
  if (clientId !== undefined) p.bodyClientId = clientId;
  const secret = str(body, 'client_secret');
  if (secret !== undefined) p.bodySecret = secret;
  const assertion = str(body, 'client_assertion');
  const assertionType = str(body, 'client_assertion_type');
  if (assertion !== undefined) p.assertion = { type: assertionType, jwt: assertion };
  else if (assertionType !== undefined)
    throw new OAuthError('invalid_request', 'client_assertion_type without client_assertion');
  return p;
}

/** the algorithms a client's assertion (private_key_jwt) may be signed with: what discovery advertises too */
export const ASSERTION_ALGORITHMS: readonly string[] = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];

export function createClientAuthenticator(deps: ClientAuthDeps) {
  const algorithms = deps.algorithms ?? [...ASSERTION_ALGORITHMS];
  const audiences = [deps.issuer, ...deps.endpoints];
  const tolerance = deps.clockToleranceSeconds ?? 5;

  /** The client, active, and registered for this family of methods. */
  const load = async (clientId: string, accepts: (m: AuthMethod) => boolean, basic: boolean): Promise<Client> => {
    if (clientId.length === 0 || clientId.length > 200) throw failed('client authentication failed', basic);
    const client = await deps.directory.getClient(clientId);
    if (client?.status !== 'active') throw failed('client authentication failed', basic);
    if (!accepts(client.authMethod))
      throw failed('client authentication failed: method not registered for this client', basic);
    return client;
  };
  const hasSecret = (m: AuthMethod) => m === 'client_secret_basic' || m === 'client_secret_post';

  const checkSecret = async (client: Client, secret: string, basic: boolean): Promise<Client> => {
    if (client.secretHash === undefined || !(await deps.directory.verifyClientSecret(client, secret))) {
      throw failed('client authentication failed', basic);
    }
    return client;
  };

  const steps: Step[] = [
    {
      name: 'client_secret_basic',
      applies: (p) => p.basic !== undefined,
      async run(p) {
        const { clientId, secret } = p.basic!;
        if (p.bodyClientId !== undefined && p.bodyClientId !== clientId) {
          throw new OAuthError('invalid_request', 'client_id in the body differs from the Basic credentials');
        }
        return checkSecret(await load(clientId, hasSecret, true), secret, true);
      },
    },
    {
      name: 'private_key_jwt',
      applies: (p) => p.assertion !== undefined,
      run: (p) => verifyAssertion(p),
    },
    {
      name: 'client_secret_post',
      applies: (p) => p.bodySecret !== undefined,
      async run(p) {
        if (p.bodyClientId === undefined) throw new OAuthError('invalid_request', 'client_secret without client_id');
        return checkSecret(await load(p.bodyClientId, hasSecret, false), p.bodySecret!, false);
      },
    },
    {
      name: 'none',
      applies: (p) => p.bodyClientId !== undefined,
      // a public client proves nothing here: PKCE at the code redemption is its proof
      run: (p) => load(p.bodyClientId!, (m) => m === 'none', false),
    },
  ];

  async function verifyAssertion(p: Presented): Promise<Client> {
    const { type, jwt } = p.assertion!;
    if (type !== JWT_BEARER_ASSERTION) throw failed(`client_assertion_type must be ${JWT_BEARER_ASSERTION}`, false);
    let unverified;
    try {
      unverified = decodeJwt(jwt);
    } catch {
      throw failed('client_assertion is not a JWT', false);
    }
    const clientId = p.bodyClientId ?? (typeof unverified.sub === 'string' ? unverified.sub : '');
    if (unverified.sub !== clientId || unverified.iss !== clientId) {
      throw failed('client_assertion iss and sub must both be the client_id', false);
    }
    const client = await load(clientId, (m) => m === 'private_key_jwt', false);
    if (!client.jwks || client.jwks.length === 0) throw failed('client has no registered keys', false);
    let payload;
    try {
      ({ payload } = await jwtVerify(jwt, createLocalJWKSet({ keys: client.jwks } as JSONWebKeySet), {
        issuer: clientId,
        subject: clientId,
        audience: audiences,
        algorithms,
        currentDate: deps.clock.now(),
        clockTolerance: tolerance,
        requiredClaims: ['exp', 'jti'],
      }));
    } catch (err) {
      if (err instanceof joseErrors.JOSEError)
        throw failed(`client_assertion rejected: ${assertionReason(err)}`, false);
      throw err;
    }
    if (typeof payload.jti !== 'string' || payload.jti.length === 0 || payload.jti.length > 256) {
      throw failed('client_assertion needs a jti', false);
    }
    await spendJti(clientId, payload.jti, payload.exp!);
    return client;
  }

  /** RFC 7523 3: a jti is accepted once. The append with no_stream is the atomic "first one wins". */
  async function spendJti(clientId: string, jti: string, exp: number): Promise<void> {
    const id = createHash('sha256').update(`${clientId}\n${jti}`, 'utf8').digest('hex');
    const stream = `${CLIENT_ASSERTION_CATEGORY}-${PLATFORM_TENANT}.${id}`;
    const now = deps.clock.now().toISOString();
    try {
      await deps.eventStore.append(
        stream,
        envelopesFor(
          [
            {
              type: 'ClientAssertionUsed',
              data: { clientId, jtiHash: id, expiresAt: new Date(exp * 1000).toISOString() },
            },
          ],
          {
            stream,
            // a fresh command id: a same-id append would be taken for an idempotent retry and succeed
            commandId: newCommandId(),
            now,
            context: { tenant: PLATFORM_TENANT, actor: clientId },
          },
        ),
        'no_stream',
      );
    } catch (err) {
      if (isWrongExpectedRevision(err)) throw failed('client_assertion was already used (jti replay)', false);
      throw err;
    }
  }

  return {
    steps: steps.map((s) => s.name),
    /** Throws OAuthError invalid_client (401, with `WWW-Authenticate: Basic` when Basic was used) or invalid_request. */
    async authenticateClient(req: ClientAuthRequest): Promise<AuthenticatedClient> {
      const p = presented(req);
      const used = steps.filter((s) => s.applies(p) && s.name !== 'none');
      if (used.length > 1) throw new OAuthError('invalid_request', 'use exactly one client authentication method');
      const step = used[0] ?? steps.find((s) => s.name === 'none' && s.applies(p));
      if (!step) throw failed('client authentication required', false);
      return { client: await step.run(p), method: step.name };
    },
  };
}

function assertionReason(err: InstanceType<typeof joseErrors.JOSEError>): string {
  if (err instanceof joseErrors.JWTExpired) return 'expired';
  if (err instanceof joseErrors.JWTClaimValidationFailed) return `claim ${err.claim} invalid`;
  if (err instanceof joseErrors.JWKSNoMatchingKey) return 'no registered key matches';
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return 'signature invalid';
  return 'invalid';
}
