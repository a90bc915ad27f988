// Shared set-up for the workflow's end-to-end specs (not a spec itself): the whole platform on 127.0.0.1
// port 0 with real SQLite stores and a manual clock, tenants `acme` and `beta` enabled for the workflow,
// real access tokens (client_credentials of clients registered with the workflow scopes), and helpers to
// deploy files (multipart), call the API and wait for the projections.
import * as assert from 'uvu/assert';
import { forTenant } from '../../../commands/core/envelopes.ts';
import { type IdentityPlatform, startIdentityPlatform } from '../identity/identity-harness.ts';

export const TENANTS = ['acme', 'beta'] as const;
export const BASE = '/workflow/v1';
export const EXTERNAL = '/api/platform/workflow/workflow/v1';
const SECRET = 'workflow-spec-secret-0123456789';
const ALL_SCOPES = ['workflow:user', 'workflow:admin'];

export type CallResult = { status: number; body: any; headers: Headers };
export type WorkflowPlatform = IdentityPlatform & {
  token(tenant: string, scopes?: string[]): Promise<string>;
  call(
    method: string,
    path: string,
    o?: { tenant?: string; token?: string; body?: unknown; raw?: string; headers?: Record<string, string> },
  ): Promise<CallResult>;
  deploy(
    tenant: string,
    files: Array<{ name: string; xml: string }>,
    o?: { token?: string; base?: string },
  ): Promise<CallResult>;
  /** runs due timers and index rebuilds now (the engines of the running platform) */
  runDue(): Promise<number>;
  /** waits until every projection has applied the log's head */
  settled(): Promise<void>;
};

export async function startWorkflowPlatform(
  o: { env?: Record<string, string>; enable?: readonly string[] } = {},
): Promise<WorkflowPlatform> {
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
      { username: 'wf-svc', name: 'workflow service user' },
      { ...spec, tenant },
      `spec/user/${tenant}`,
    );
    await ctx.commands.registerClient(
      {
        clientId: `${tenant}-wf`,
        grantTypes: ['client_credentials'],
        defaultUser: 'wf-svc',
        scopes: ALL_SCOPES,
        clientSecret: SECRET,
      },
      { ...spec, tenant },
      `spec/client/${tenant}`,
    );
  }
  const tokens = new Map<string, string>();
  const token = async (tenant: string, scopes = ALL_SCOPES) => {
    const key = `${tenant} ${scopes.join(' ')}`;
    const cached = tokens.get(key);
    if (cached) return cached;
    ctx.syncClock();
    const res = await fetch(`${ctx.base}/cas/oidc/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${tenant}-wf:${SECRET}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: scopes.join(' ') }),
    });
    const body = (await res.json()) as { access_token?: string };
    assert.is(res.status, 200, `token for ${tenant}: ${JSON.stringify(body)}`);
    tokens.set(key, body.access_token!);
    return body.access_token!;
  };
  const parse = async (res: Response): Promise<CallResult> => {
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      // not JSON: the text
    }
    return { status: res.status, body, headers: res.headers };
  };
  const call: WorkflowPlatform['call'] = async (method, path, c = {}) => {
    const headers: Record<string, string> = { ...(c.headers ?? {}) };
    const bearer = c.token ?? (c.tenant !== undefined ? await token(c.tenant) : undefined);
    if (bearer !== undefined) headers.authorization = `Bearer ${bearer}`;
    if (c.body !== undefined || c.raw !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(`${ctx.base}${path}`, {
      method,
      headers,
      ...(c.raw !== undefined ? { body: c.raw } : c.body !== undefined ? { body: JSON.stringify(c.body) } : {}),
    });
    return parse(res);
  };
  const deploy: WorkflowPlatform['deploy'] = async (tenant, files, d = {}) => {
    const form = new FormData();
    for (const f of files) form.append('files', new Blob([f.xml], { type: 'application/xml' }), f.name);
    const res = await fetch(`${ctx.base}${d.base ?? EXTERNAL}/deployment`, {
      method: 'POST',
      headers: { authorization: `Bearer ${d.token ?? (await token(tenant))}` },
      body: form,
    });
    return parse(res);
  };
  const settled = async () => {
    const head = await ctx.platform.stores.eventStore.headPosition();
    await ctx.platform.reader?.reached(head);
  };
  const runDue = async () => {
    await settled();
    let ran = 0;
    for (const e of ctx.platform.services.find((s) => s.name === 'workflow')!.engines) ran += await e.runDue();
    await settled();
    return ran;
  };
  for (const tenant of o.enable ?? TENANTS) {
    const r = await call('POST', `${BASE}/admin/tenants/${tenant}/enable`, { tenant });
    assert.is(r.status, 200, `enable ${tenant}: ${JSON.stringify(r.body)}`);
  }
  return { ...ctx, token, call, deploy, runDue, settled };
}

/** a start request with the spec's required query variables */
export const startBody = (
  processDefinitionKey: string,
  businessKey: string,
  controlVariables: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
) => ({
  processDefinitionKey,
  businessKey,
  queryVariables: {
    TaskType: 'spec',
    WorkflowBusinessKey: businessKey,
    ...((extra.queryVariables as object | undefined) ?? {}),
  },
  controlVariables,
  ...Object.fromEntries(Object.entries(extra).filter(([k]) => k !== 'queryVariables')),
});

/** a minimal Camunda 7 process: start → one user task per id in order → end */
export function sequenceXml(key: string, taskIds: string[], o: { assignee?: string; name?: string } = {}): string {
  const nodes = ['start', ...taskIds, 'end'];
  const tasks = taskIds
    .map(
      (id) =>
        `<userTask id="${id}" name="${id}"${o.assignee !== undefined ? ` camunda:assignee="${o.assignee}"` : ''}/>`,
    )
    .join('\n    ');
  const flows = nodes
    .slice(1)
    .map((to, i) => `<sequenceFlow id="f${i}" sourceRef="${nodes[i]}" targetRef="${to}"/>`)
    .join('\n    ');
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" targetNamespace="spec">
  <process id="${key}" name="${o.name ?? key}" isExecutable="true">
    <startEvent id="start"/>
    ${tasks}
    <endEvent id="end"/>
    ${flows}
  </process>
</definitions>`;
}

/**
 * A platform on a data folder the caller keeps (restart tests): the same configuration and seed on every
 * start; `setup` registers tenant acme with a workflow client and enables it.
 */
export async function openWorkflowPlatform(o: { dir: string; clock: { now(): Date }; setup: boolean }) {
  const { loadConfig } = await import('../../../infra/core/config.ts');
  const { startPlatform } = await import('../../../infra/main.ts');
  const { createSqliteEventStore } = await import('../../../infra/sqlite/event-store.sqlite.ts');
  const { createSqliteReadStore } = await import('../../../infra/sqlite/read-store.sqlite.ts');
  const { createDirectoryCommands } = await import('../../../commands/identity/directory.commands.ts');
  const { pino } = await import('pino');
  const path = await import('node:path');
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: 'http://127.0.0.1:0',
    DATA_DIR: o.dir,
    LOG_LEVEL: 'silent',
    SEED_TENANT: 'demo',
    SEED_ADMIN_PASSWORD: 'correct horse battery staple',
    SEED_CLIENT_SECRET: 'demo-secret-0123456789',
    KEY_ENCRYPTION_SECRET: 'restart-spec-key-encryption-secret-0123',
  });
  const eventStore = createSqliteEventStore({ file: path.join(o.dir, 'events.sqlite') });
  const readStore = createSqliteReadStore({ file: path.join(o.dir, 'read-models.sqlite') });
  const platform = await startPlatform({
    config,
    log: pino({ level: 'silent' }),
    clock: o.clock,
    stores: {
      eventStore,
      readStore,
      kinds: { eventStore: 'sqlite', readStore: 'sqlite' },
      async close() {
        await eventStore.close();
        await readStore.close();
      },
    },
  });
  const base = platform.publicBaseUrl;
  if (o.setup) {
    const commands = createDirectoryCommands({ eventStore, clock: o.clock });
    const spec = { tenant: 'platform', actor: 'spec' };
    await commands.createTenant(
      { name: 'ACME', supportMailGroup: 'support@acme.example' },
      forTenant(spec, 'acme'),
      'spec/tenant/acme',
    );
    await commands.registerUser(
      { username: 'wf-svc', name: 'workflow service user' },
      { ...spec, tenant: 'acme' },
      'spec/user/acme',
    );
    await commands.registerClient(
      {
        clientId: 'acme-wf',
        grantTypes: ['client_credentials'],
        defaultUser: 'wf-svc',
        scopes: ALL_SCOPES,
        clientSecret: SECRET,
      },
      { ...spec, tenant: 'acme' },
      'spec/client/acme',
    );
  }
  const res = await fetch(`${base}/cas/oidc/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`acme-wf:${SECRET}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: ALL_SCOPES.join(' ') }),
  });
  const token = ((await res.json()) as { access_token: string }).access_token;
  const call = async (method: string, p: string, body?: unknown) => {
    const r = await fetch(`${base}${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await r.text();
    return { status: r.status, body: text === '' ? undefined : (JSON.parse(text) as any) };
  };
  if (o.setup) assert.is((await call('POST', `${BASE}/admin/tenants/acme/enable`)).status, 200);
  const deploy = async (name: string, xml: string) => {
    const form = new FormData();
    form.append('files', new Blob([xml]), name);
    const r = await fetch(`${base}${BASE}/deployment`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return { status: r.status, body: (await r.json()) as any };
  };
  return { platform, call, deploy, stop: () => platform.stop() };
}
