import * as assert from 'uvu/assert';
import type { createDirectoryCommands } from '../../../commands/identity/directory.commands.ts';

/**
 * For specs of routers that sit behind the bearer middleware: registers a machine user and a
 * client_credentials client of `tenant` allowed `scopes`, and answers an access token from the real
 * token endpoint at `baseUrl`.
 */
export async function machineToken(o: {
  baseUrl: string;
  directory: ReturnType<typeof createDirectoryCommands>;
  tenant: string;
  clientId: string;
  scopes: string[];
}): Promise<string> {
  const { directory, tenant, clientId, scopes } = o;
  const sys = { tenant, actor: 'test' };
  const user = await directory.registerUser(
    { username: `${clientId}-user`, name: clientId, roles: scopes },
    sys,
    `u-${tenant}-${clientId}`,
  );
  const secret = `secret-of-${clientId}-123`;
  await directory.registerClient(
    { clientId, grantTypes: ['client_credentials'], defaultUser: user.user.userId, scopes, clientSecret: secret },
    sys,
    `c-${tenant}-${clientId}`,
  );
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64');
  const res = await fetch(`${o.baseUrl}/cas/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: scopes.join(' ') }),
  });
  const body = (await res.json()) as { access_token?: string };
  assert.is(res.status, 200, JSON.stringify(body));
  return body.access_token!;
}
