// Shared set-up for the hub's end-to-end specs (not a spec itself): the whole platform (identity, hub,
// workers on) on 127.0.0.1 port 0 with real SQLite stores and a manual clock (the real time, frozen:
// tests move it to reach retries and deadlines), tenants `acme` and `beta` with clients holding the hub's
// scopes, a platform-tenant client whose token the hub sends to receivers, and helpers that configure a
// notification end to end (channel, delivery service, template, context, definition, rules).
import * as assert from 'uvu/assert';
import { forTenant } from '../../../commands/core/envelopes.ts';
import { eventually } from '../../core/eventually.ts';
import { type IdentityPlatform, startIdentityPlatform } from '../identity/identity-harness.ts';

export const TENANTS = ['acme', 'beta'] as const;
export const HUB = '/comm/v1';
const SECRET = 'hub-spec-secret-0123456789';
export const PLATFORM_HUB_CLIENT = 'hub-platform';

export type HubPlatform = IdentityPlatform & {
  token(tenant: string, scopes?: string[]): Promise<string>;
  call(
    method: string,
    path: string,
    o?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  /** spec/core/eventually.ts */
  eventually: typeof eventually;
  /** advances the manual clock and wakes the dispatch worker */
  advance(ms: number): void;
};

export async function startHubPlatform(
  o: {
    env?: Record<string, string>;
    /** the platform's configuration variables (loadConfig: KEY_ENCRYPTION_SECRET …), besides the harness's */
    platformEnv?: Record<string, string>;
    /** DATA_DIR kept on stop, for a restart on the same stores (the caller removes it) */
    dataDir?: string;
  } = {},
): Promise<HubPlatform> {
  // the hub reads its own settings from the environment when it is built
  // comm-hub.preference.default-allow is false by default (spec): most hub specs store no preferences and
  // their definitions RESPECT them, so the harness allows by default; customer-policies.spec.ts sets false
  Object.assign(process.env, {
    HUB_DISPATCH_POLL_MS: '20',
    HUB_CLIENT_ID: PLATFORM_HUB_CLIENT,
    HUB_CLIENT_SECRET: SECRET,
    HUB_PREFERENCE_DEFAULT_ALLOW: 'true',
    ...o.env,
  });
  const ctx = await startIdentityPlatform({
    redirectUri: 'http://127.0.0.1/callback',
    ...(o.platformEnv !== undefined && { env: o.platformEnv }),
    ...(o.dataDir !== undefined && { dataDir: o.dataDir }),
  });
  const spec = { tenant: 'platform', actor: 'spec' };
  for (const tenant of TENANTS)
    await ctx.commands.createTenant({ name: tenant.toUpperCase() }, forTenant(spec, tenant), `spec/tenant/${tenant}`);
  for (const tenant of [...TENANTS, 'platform']) {
    await ctx.commands.registerUser(
      { username: 'hub-svc', name: 'hub service user' },
      { ...spec, tenant },
      `spec/user/${tenant}`,
    );
    await ctx.commands.registerClient(
      {
        clientId: tenant === 'platform' ? PLATFORM_HUB_CLIENT : `${tenant}-hub`,
        grantTypes: ['client_credentials'],
        defaultUser: 'hub-svc',
        scopes: ['hub:send', 'hub:admin', 'hub:operator'],
        clientSecret: SECRET,
      },
      { ...spec, tenant },
      `spec/client/${tenant}`,
    );
  }
  const tokens = new Map<string, string>();
  const token = async (tenant: string, scopes = ['hub:send', 'hub:admin', 'hub:operator']) => {
    const key = `${tenant} ${scopes.join(' ')}`;
    const cached = tokens.get(key);
    if (cached) return cached;
    ctx.syncClock();
    const res = await fetch(`${ctx.base}/cas/oidc/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${tenant}-hub:${SECRET}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: scopes.join(' ') }),
    });
    const body = (await res.json()) as { access_token?: string };
    assert.is(res.status, 200, `token for ${tenant}: ${JSON.stringify(body)}`);
    tokens.set(key, body.access_token!);
    return body.access_token!;
  };
  const call: HubPlatform['call'] = async (method, path, c = {}) => {
    const headers: Record<string, string> = { ...(c.headers ?? {}) };
    if (c.token !== undefined) headers.authorization = `Bearer ${c.token}`;
    if (c.body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(`${ctx.base}${path}`, {
      method,
      headers,
      ...(c.body !== undefined && { body: JSON.stringify(c.body) }),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body, headers: res.headers };
  };
  const advance = (ms: number) => {
    ctx.clock.advance(ms);
    // tokens are minted on the manual clock: moved far enough, they expire
    tokens.clear();
    for (const s of ctx.platform.services) for (const e of s.engines) e.wake();
  };
  return { ...ctx, token, call, eventually, advance };
}

export type Setup = {
  code: string;
  definitionId: string;
  serviceId: string;
  signingSecret: string;
  rules: string[];
};

let seq = 0;

/**
 * Configures one notification code for `tenant`: channels, a REST_WEBHOOK service per channel pointing at
 * `receiverUrl`, templates (en_US), a context (Customer.Email, Customer.Phone, Customer.Id, Amount), a
 * definition (strategy, retry policy) and one rule per channel in order (CONTEXT recipients).
 */
export async function configure(
  p: Pick<HubPlatform, 'token' | 'call'>,
  tenant: string,
  o: {
    receiverUrl: string;
    channels?: string[];
    strategy?: 'ALL' | 'FALLBACK';
    receiptMode?: 'FINAL_RESULT' | 'ACCEPTANCE_ONLY';
    receiptTimeoutSeconds?: number;
    retry?: {
      MaxAttempts: number;
      RetryInitialDelaySeconds: number;
      RetryBackoffMultiplier: number;
      RetryMaxDelaySeconds: number;
    };
    settings?: Record<string, unknown>;
    condition?: string;
    preferencePolicy?: 'RESPECT' | 'BYPASS';
    /** the context's SensitiveFields (default: the email by EMAIL and the name by NAME, as `$` paths) */
    sensitiveFields?: Array<{ Path: string; Method: string; Pattern?: string }>;
  },
): Promise<Setup> {
  const t = await p.token(tenant);
  const n = ++seq;
  const code = `notice-${n}`;
  const channels = o.channels ?? ['EMAIL'];
  const ok = (r: { status: number; body: any }, what: string) =>
    assert.ok(r.status < 300, `${what}: ${r.status} ${JSON.stringify(r.body)}`);
  let signingSecret = '';
  const serviceId = `svc-${n}`;
  for (const [i, ch] of channels.entries()) {
    const existing = await p.call('GET', `${HUB}/channels/${ch}`, { token: t });
    if (existing.status === 404)
      ok(await p.call('POST', `${HUB}/channels`, { token: t, body: { Code: ch } }), `channel ${ch}`);
    const svc = await p.call('POST', `${HUB}/delivery-services`, {
      token: t,
      body: {
        ServiceId: `${serviceId}-${i}`,
        DriverType: 'REST_WEBHOOK',
        Channel: ch,
        Settings: {
          Url: o.receiverUrl,
          SupportedChannels: [ch],
          SupportedContentTypes: ['TEXT', 'HTML'],
          ...o.settings,
        },
        ReceiptMode: o.receiptMode ?? 'FINAL_RESULT',
        ...(o.receiptTimeoutSeconds !== undefined && { ReceiptTimeoutSeconds: o.receiptTimeoutSeconds }),
      },
    });
    ok(svc, 'service');
    if (i === 0) signingSecret = svc.body.SigningSecret;
    ok(
      await p.call('POST', `${HUB}/templates`, {
        token: t,
        body: {
          TemplateCode: code,
          Channel: ch,
          LanguageId: 'en_US',
          ContentType: 'TEXT',
          Subject: 'Policy ${PolicyNo}',
          Body: 'Dear ${Name}, you pay ${Amount}.',
          Status: 'ACTIVE',
        },
      }),
      'template',
    );
  }
  ok(
    await p.call('POST', `${HUB}/context-definitions`, {
      token: t,
      body: {
        ContextDefinitionId: `ctx-${n}`,
        Contexts: { customer: '$.customer' },
        Variables: {
          Name: 'Context.customer.name',
          Email: 'Context.customer.email',
          Phone: 'Context.customer.phone',
          CustomerId: 'Context.customer.id',
          Amount: 'Payload.amount',
          PolicyNo: 'Payload.policyNo',
        },
        SensitiveFields: o.sensitiveFields ?? [
          { Path: '$.customer.email', Method: 'EMAIL' },
          { Path: '$.customer.name', Method: 'NAME' },
        ],
      },
    }),
    'context',
  );
  const def = await p.call('POST', `${HUB}/definitions`, {
    token: t,
    body: {
      NotificationCode: code,
      EffectiveTime: '2020-01-01T00:00:00Z',
      ContextDefinitionId: `ctx-${n}`,
      DefaultLanguageId: 'en_US',
      DeliveryStrategy: o.strategy ?? 'ALL',
      ...(o.retry !== undefined && { RetryPolicy: o.retry }),
      ...(o.preferencePolicy !== undefined && { PreferencePolicy: o.preferencePolicy }),
    },
  });
  ok(def, 'definition');
  const rules: string[] = [];
  for (const [i, ch] of channels.entries()) {
    const r = await p.call('POST', `${HUB}/delivery-rules`, {
      token: t,
      body: {
        DefinitionId: def.body.DefinitionId,
        RuleKey: `to-${ch.toLowerCase()}`,
        Role: 'Customer',
        Channel: ch,
        OrderNo: i,
        RecipientSource: 'CONTEXT',
        IdentityVariable: 'CustomerId',
        AddressVariable: ch === 'SMS' ? 'Phone' : 'Email',
        TemplateCode: code,
        ServiceId: `${serviceId}-${i}`,
        ...(o.condition !== undefined && { Condition: o.condition }),
      },
    });
    ok(r, 'rule');
    rules.push(r.body.RuleId);
  }
  return { code, definitionId: def.body.DefinitionId, serviceId: `${serviceId}-0`, signingSecret, rules };
}

let requests = 0;
/** a send request for `code` (fresh RequestId unless given) */
export const aSend = (code: string, o: Record<string, unknown> = {}) => ({
  RequestId: `req-${process.pid}-${++requests}`,
  NotificationCode: code,
  Payload: {
    amount: 120,
    policyNo: 'P-42',
    customer: { id: 'C-1', name: 'Jane Roe', email: 'jane@example.com', phone: '+4917012345' },
  },
  ...o,
});
