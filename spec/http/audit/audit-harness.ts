// Shared set-up for the audit service's end-to-end specs (not a spec itself): the whole platform on
// 127.0.0.1 port 0 with real SQLite stores (identity, bridge, audit; workers on), tenants `acme` and `beta`,
// and real access tokens from the identity provider (client_credentials clients granted audit scopes).
import * as assert from 'uvu/assert';
import { forTenant } from '../../../commands/core/envelopes.ts';
import { AUDIT_ADMIN_SCOPE, AUDIT_READ_SCOPE, AUDIT_WRITE_SCOPE } from '../../../domain/audit/audit.scopes.ts';
import { CROSS_TENANT_SCOPE } from '../../../domain/core/access-context.ts';
import type { PlatformService } from '../../../infra/platform-service.ts';
import { eventually } from '../../core/eventually.ts';
import { type IdentityPlatform, startIdentityPlatform } from '../identity/identity-harness.ts';

export const TENANTS = ['acme', 'beta'] as const;
export const V3 = '/api/platform/audit/1.0/audit/v3';
export const V2 = '/api/platform/audit/1.0/audit/v2';
export const ALL_SCOPES = [AUDIT_WRITE_SCOPE, AUDIT_READ_SCOPE, AUDIT_ADMIN_SCOPE];

export type Answer = { status: number; body: any; headers: Headers; text: string };

export type AuditPlatform = IdentityPlatform & {
  /** an access token of `tenant` with the given scopes (default: the three audit scopes) */
  token(tenant: string, scopes?: string[]): Promise<string>;
  /** a new token (after the clock moved past the cached ones' expiry) */
  freshToken(tenant: string, scopes?: string[]): Promise<string>;
  /** a token of tenant acme's cross-tenant client (allowed_access_tenants: beta) */
  crossToken(scopes: string[]): Promise<string>;
  call(
    method: string,
    path: string,
    o?: { token?: string; body?: unknown; raw?: string | Uint8Array | FormData; headers?: Record<string, string> },
  ): Promise<Answer>;
  /** spec/core/eventually.ts */
  eventually: typeof eventually;
  audit(): PlatformService;
  /** creates module and transaction (idempotent for the spec's purposes) */
  metadata(
    token: string,
    module: string,
    transactions: Array<string | { transaction_name: string; transaction_vendor?: string }>,
  ): Promise<void>;
  /** waits until the records projection has applied the tenant's chain up to `sequence` */
  projected(token: string, sequence: number): Promise<void>;
};

const SECRET = 'audit-spec-secret-0123456789';

export async function startAuditPlatform(o: { env?: Record<string, string> } = {}): Promise<AuditPlatform> {
  const ctx = await startIdentityPlatform({
    redirectUri: 'http://127.0.0.1/callback',
    ...(o.env !== undefined && { env: o.env }),
  });
  const spec = { tenant: 'platform', actor: 'spec' };
  for (const tenant of TENANTS) {
    await ctx.commands.createTenant({ name: tenant.toUpperCase() }, forTenant(spec, tenant), `spec/tenant/${tenant}`);
  }
  for (const tenant of [...TENANTS, 'platform']) {
    await ctx.commands.registerUser(
      { username: 'audit-svc', name: 'audit service user' },
      { ...spec, tenant },
      `spec/user/${tenant}`,
    );
    await ctx.commands.registerClient(
      {
        clientId: `${tenant}-audit`,
        grantTypes: ['client_credentials'],
        defaultUser: 'audit-svc',
        scopes: ALL_SCOPES,
        clientSecret: SECRET,
      },
      { ...spec, tenant },
      `spec/client/${tenant}`,
    );
  }
  await ctx.commands.registerClient(
    {
      clientId: 'acme-cross',
      grantTypes: ['client_credentials'],
      defaultUser: 'audit-svc',
      scopes: [...ALL_SCOPES, CROSS_TENANT_SCOPE],
      allowedAccessTenants: ['beta'],
      clientSecret: SECRET,
    },
    { ...spec, tenant: 'acme' },
    'spec/client/acme-cross',
  );
  const tokens = new Map<string, string>();
  const fetchToken = async (clientId: string, scopes: string[], fresh = false) => {
    const key = `${clientId} ${scopes.join(' ')}`;
    const cached = tokens.get(key);
    if (cached && !fresh) return cached;
    ctx.syncClock();
    const res = await fetch(`${ctx.base}/cas/oidc/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${clientId}:${SECRET}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: scopes.join(' ') }),
    });
    const body = (await res.json()) as { access_token?: string };
    assert.is(res.status, 200, `token for ${clientId}: ${JSON.stringify(body)}`);
    tokens.set(key, body.access_token!);
    return body.access_token!;
  };
  const call: AuditPlatform['call'] = async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.token !== undefined) headers.authorization = `Bearer ${o.token}`;
    if (o.body !== undefined) headers['content-type'] ??= 'application/json';
    const body = o.raw !== undefined ? o.raw : o.body !== undefined ? JSON.stringify(o.body) : undefined;
    const res = await fetch(`${ctx.base}${path}`, { method, headers, ...(body !== undefined && { body }) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // not JSON: the text
    }
    return { status: res.status, body: parsed, headers: res.headers, text };
  };
  return {
    ...ctx,
    token: (tenant, scopes = ALL_SCOPES) => fetchToken(`${tenant}-audit`, scopes),
    freshToken: (tenant, scopes = ALL_SCOPES) => fetchToken(`${tenant}-audit`, scopes, true),
    crossToken: (scopes) => fetchToken('acme-cross', scopes),
    call,
    eventually,
    audit: () => ctx.platform.services.find((s) => s.name === 'audit')!,
    async metadata(token, module, transactions) {
      const m = await call('POST', `${V3}/modules`, { token, body: { module_name: module } });
      assert.ok(m.status === 201 || m.status === 409, JSON.stringify(m.body));
      for (const t of transactions) {
        const body = typeof t === 'string' ? { transaction_name: t } : t;
        const r = await call('POST', `${V3}/modules/${encodeURIComponent(module)}/transactions`, { token, body });
        assert.ok(r.status === 201 || r.status === 409, JSON.stringify(r.body));
      }
    },
    async projected(token, sequence) {
      await eventually(async () => {
        const r = await call('GET', `${V3}/verify?from_sequence=${sequence}&to_sequence=${sequence}`, { token });
        return r.body?.read_store?.not_yet_projected === null && r.body.head_sequence >= sequence ? true : undefined;
      }, `records projected up to ${sequence}`);
    },
  };
}

let n = 0;
/** a minimal log record (the spec's minimal form); override anything */
export const aRecord = (o: Record<string, unknown> = {}) => ({
  transaction_name: 'createPolicy',
  transaction_vendor: 'acme-core',
  business_code: `PolicyNo:P-${++n}`,
  client_ip: '10.1.2.3',
  new_data: JSON.stringify({ policy: n, premium: 120 }),
  old_data: '',
  ...o,
});

/** a query-many body over a wide window; override anything */
export const aQuery = (o: Record<string, unknown> = {}) => ({
  module_name: 'policy',
  transaction_name: 'createPolicy',
  start_time: '2000-01-01T00:00:00.000Z',
  end_time: '2100-01-01T00:00:00.000Z',
  ...o,
});
