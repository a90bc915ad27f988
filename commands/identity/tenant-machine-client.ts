import { isDomainError } from '../../domain/core/domain-error.ts';
import { OIDC_SCOPES } from '../../domain/identity/identity.scopes.ts';
import type { Client } from '../../domain/identity/model.ts';
import { newCommandId } from '../core/event-id.ts';
import type { DirectoryCommands } from './directory.commands.ts';
import type { Directory, TokenService } from './identity.contracts.ts';

/**
 * A machine client the platform keeps in every tenant for one of its own services (the hub's webhooks:
 * `hub-webhooks.<tenant>`), so that service can act with a token of the tenant without any configuration.
 *
 * - `ensure(tenant)`: the client (client_credentials, the given scopes, a machine user `<name>` as its
 *   default user), registered when missing. Command ids are derived from the tenant, so a redelivered
 *   TenantCreated or two processes ensuring at once register it once. Its secret is generated and never
 *   shown: nobody fetches its tokens at the token endpoint, the platform mints them.
 * - `token(tenant)`: a token of that client minted in-process by the token service, exactly what the token
 *   endpoint answers the client for a client_credentials request without `scope` (same claims, same keys;
 *   the signing keys live in the event store, so any process with the key-encryption secret can mint).
 *   Undefined when the client is disabled, no longer a client_credentials client, squatted by another
 *   tenant (client ids are global), or cannot be registered for good (its machine user's username is taken):
 *   then the service has no token, as when nothing is configured. Such a refusal is remembered for a
 *   minute, so a busy tenant does not retry the registration on every call.
 */
export type TenantMachineClient = {
  readonly clientId: (tenant: string) => string;
  ensure(tenant: string): Promise<Client>;
  token(tenant: string): Promise<{ token: string; expiresIn: number } | undefined>;
};

export type TenantMachineClientDeps = {
  commands: Pick<DirectoryCommands, 'registerUser' | 'registerClient'>;
  directory: Pick<Directory, 'getClient'>;
  tokens: Pick<TokenService, 'issue'>;
  /** the client id's prefix and the machine user's username (`hub-webhooks`) */
  name: string;
  appName: string;
  scopes: string[];
  /** milliseconds since the epoch (the refusal memory's clock); Date.now by default */
  now?: () => number;
};

const REFUSAL_MEMORY_MS = 60_000;

export function createTenantMachineClient(deps: TenantMachineClientDeps): TenantMachineClient {
  const clientId = (tenant: string) => `${deps.name}.${tenant}`;
  const now = deps.now ?? Date.now;
  /** tenants whose client cannot be registered, until when that answer stands */
  const refused = new Map<string, number>();

  async function ensure(tenant: string): Promise<Client> {
    const existing = await deps.directory.getClient(clientId(tenant));
    if (existing !== null) return existing;
    const ctx = { tenant, actor: `system:${deps.name}` };
    const { user } = await deps.commands.registerUser(
      { username: deps.name, name: `${deps.appName} (machine user)` },
      ctx,
      `machine-client/${deps.name}/user/${tenant}`,
    );
    const { client } = await deps.commands.registerClient(
      {
        clientId: clientId(tenant),
        appName: deps.appName,
        grantTypes: ['client_credentials'],
        authMethod: 'client_secret_basic',
        defaultUser: user.userId,
        scopes: deps.scopes,
      },
      ctx,
      `machine-client/${deps.name}/client/${tenant}`,
    );
    return client;
  }

  return {
    clientId,
    ensure,
    async token(tenant) {
      if ((refused.get(tenant) ?? 0) > now()) return undefined;
      let client: Client;
      try {
        client = await ensure(tenant);
      } catch (err) {
        if (!isPermanentRegistrationError(err)) throw err;
        refused.set(tenant, now() + REFUSAL_MEMORY_MS);
        return undefined;
      }
      refused.delete(tenant);
      const usable =
        client.status === 'active' &&
        client.tenant === tenant &&
        client.grantTypes.includes('client_credentials') &&
        client.defaultUser !== undefined;
      if (!usable) return undefined;
      // the token endpoint's client_credentials answer without a `scope` parameter
      const issued = await deps.tokens.issue({
        client,
        tenant: client.tenant,
        subject: client.defaultUser!,
        scopes: [...OIDC_SCOPES, ...client.scopes],
        refresh: false,
        commandId: newCommandId(),
        grantType: 'client_credentials',
      });
      return { token: issued.access_token, expiresIn: issued.expires_in };
    },
  };
}

/** a refusal `ensure` cannot get past by retrying (the machine user's username is taken, say) */
export const isPermanentRegistrationError = (err: unknown): boolean =>
  isDomainError(err) && err.status >= 400 && err.status < 500;
