// Shared set-up for the bridge's end-to-end specs (not a spec itself): the whole platform (identity and
// bridge, workers on) on 127.0.0.1 port 0 with real SQLite stores, tenants `acme` and `beta`, and real
// access tokens from the identity provider (client_credentials of clients registered with bridge scopes).
import * as assert from 'uvu/assert';
import { forTenant } from '../../../commands/core/envelopes.ts';
import { eventually } from '../../core/eventually.ts';
import { type IdentityPlatform, startIdentityPlatform } from '../identity/identity-harness.ts';

export const TENANTS = ['acme', 'beta'] as const;
export const PUT_EVENT = '/api/platform/platform-pub/eventBridge/event/v1/putEvent';
export const PUT_EVENTS = '/api/platform/platform-pub/eventBridge/event/v1/putEvents';
export const ADMIN = '/api/platform/platform-pub/eventBridge/admin/v1';

export type BridgePlatform = IdentityPlatform & {
  /** an access token of `tenant` with the given scopes (cached per tenant and scope set) */
  token(tenant: string, scopes?: string[]): Promise<string>;
  /** JSON request with a bearer token; answers status, body and headers */
  call(
    method: string,
    path: string,
    o?: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  /** spec/core/eventually.ts */
  eventually: typeof eventually;
};

const SECRET = 'bridge-spec-secret-0123456789';

/** `env`: extra configuration (SERVICE_REGISTRY, DELIVERY_POLL_MS …) */
export async function startBridgePlatform(o: { env?: Record<string, string> } = {}): Promise<BridgePlatform> {
  const ctx = await startIdentityPlatform({
    redirectUri: 'http://127.0.0.1/callback',
    ...(o.env !== undefined && { env: o.env }),
  });
  const spec = { tenant: 'platform', actor: 'spec' };
  for (const tenant of TENANTS) {
    await ctx.commands.createTenant(
      { name: tenant.toUpperCase(), supportMailGroup: `support@${tenant}.example` },
      forTenant(spec, tenant),
      `spec/tenant/${tenant}`,
    );
  }
  for (const tenant of [...TENANTS, 'platform']) {
    await ctx.commands.registerUser(
      { username: 'bridge-svc', name: 'bridge service user' },
      { ...spec, tenant },
      `spec/user/${tenant}`,
    );
    await ctx.commands.registerClient(
      {
        clientId: `${tenant}-bridge`,
        grantTypes: ['client_credentials'],
        defaultUser: 'bridge-svc',
        scopes: ['bridge:publish', 'bridge:admin'],
        clientSecret: SECRET,
      },
      { ...spec, tenant },
      `spec/client/${tenant}`,
    );
  }
  const tokens = new Map<string, string>();
  const token = async (tenant: string, scopes = ['bridge:publish', 'bridge:admin']) => {
    const key = `${tenant} ${scopes.join(' ')}`;
    const cached = tokens.get(key);
    if (cached) return cached;
    ctx.syncClock();
    const res = await fetch(`${ctx.base}/cas/oidc/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${tenant}-bridge:${SECRET}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: scopes.join(' ') }),
    });
    const body = (await res.json()) as { access_token?: string };
    assert.is(res.status, 200, `token for ${tenant}: ${JSON.stringify(body)}`);
    tokens.set(key, body.access_token!);
    return body.access_token!;
  };
  const call: BridgePlatform['call'] = async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.token !== undefined) headers.authorization = `Bearer ${o.token}`;
    if (o.body !== undefined || o.raw !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(`${ctx.base}${path}`, {
      method,
      headers,
      ...(o.raw !== undefined ? { body: o.raw } : o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      // not JSON: the text
    }
    return { status: res.status, body, headers: res.headers };
  };
  return { ...ctx, token, call, eventually };
}

let seq = 0;
/** a valid event; override anything */
export const anEvent = (o: Record<string, unknown> = {}) => ({
  id: `evt-${process.pid}-${++seq}`,
  source: 'shop:checkout',
  type: 'shop:Order:Placed',
  subject: 'orders:eu',
  time: '2026-03-01T10:00:00',
  dataContentType: 'application/json',
  eventBusName: 'orders',
  data: { orderId: seq, amount: 120, region: 'eu' },
  ...o,
});

/** a batch job alert of the platform's batch source (valid against the platform schema) */
export const aJobAlert = (tenant: string, o: Record<string, unknown> = {}) => ({
  id: `alert-${process.pid}-${++seq}`,
  source: 'batchv2:job',
  type: 'batchv2:Alter:JobAlter',
  subject: 'batchv2:job:nightly',
  time: '2026-03-01T09:59:00',
  dataContentType: 'application/json',
  eventBusName: 'platform-batch',
  data: {
    jobId: 'j1',
    jobName: 'nightly-close',
    status: 'FAILED',
    message: 'disk full',
    tenant,
    occurredAt: '2026-03-01T09:59:00Z',
  },
  ...o,
});
