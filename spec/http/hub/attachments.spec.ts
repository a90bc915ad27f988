// Attachments through the whole platform to a real webhook receiver: document references reach the
// messages of the roles their RoleFilter names (every role without one), travel in the webhook body, are
// refused where the delivery service says it takes none (FAILED ATTACHMENTS_NOT_SUPPORTED, 422 when no
// message is left), and bad descriptors are a 400 that stores nothing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startWebhookReceiver, type WebhookReceiver } from './fixtures/webhook-receiver.ts';
import { aSend, configure, HUB, type HubPlatform, type Setup, startHubPlatform } from './hub-harness.ts';

let p: HubPlatform;
let rx: WebhookReceiver;
let token: string;
const send = (body: unknown) => p.call('POST', `${HUB}/notifications/send`, { token, body });

/** a second role (Agent) on the same channel and service, its address from the payload's agent */
async function addAgentRule(s: Setup, serviceId = s.serviceId): Promise<void> {
  const ctx = await p.call('PUT', `${HUB}/context-definitions/ctx-${s.code.split('-')[1]}`, {
    token,
    body: {
      Contexts: { customer: '$.customer' },
      Variables: {
        Name: 'Context.customer.name',
        Email: 'Context.customer.email',
        CustomerId: 'Context.customer.id',
        Amount: 'Payload.amount',
        PolicyNo: 'Payload.policyNo',
        AgentEmail: 'Payload.agent.email',
        AgentId: 'Payload.agent.id',
      },
    },
  });
  assert.is(ctx.status, 200, JSON.stringify(ctx.body));
  const r = await p.call('POST', `${HUB}/delivery-rules`, {
    token,
    body: {
      DefinitionId: s.definitionId,
      RuleKey: 'to-agent',
      Role: 'Agent',
      Channel: 'EMAIL',
      RecipientSource: 'CONTEXT',
      IdentityVariable: 'AgentId',
      AddressVariable: 'AgentEmail',
      TemplateCode: s.code,
      ServiceId: serviceId,
    },
  });
  assert.is(r.status, 201, JSON.stringify(r.body));
}
const withAgent = (code: string, o: Record<string, unknown> = {}) => {
  const base = aSend(code, o);
  return { ...base, Payload: { ...base.Payload, agent: { id: 'A-9', email: 'agent@example.com' } } };
};

test.before(async () => {
  p = await startHubPlatform();
  rx = await startWebhookReceiver(() => 202);
  token = await p.token('acme');
});
test.after(async () => {
  await rx.close();
  await p.platform.stop();
});

test("RoleFilter decides which roles' messages carry an attachment; the webhook body carries them", async () => {
  const s = await configure(p, 'acme', {
    receiverUrl: rx.url,
    settings: { SupportsAttachments: true },
    preferencePolicy: 'BYPASS',
  });
  await addAgentRule(s);
  const r = await send(
    withAgent(s.code, {
      Attachments: [
        { DocId: 'policy-4711.pdf', DeliveryMode: 'SECURE_LINK', ExpireDays: 7 },
        { DocId: 'commission-note.pdf', RoleFilter: ['Agent'] },
        { DocId: 'terms.pdf', DeliveryMode: 'INLINE', RoleFilter: 'Customer' },
      ],
    }),
  );
  assert.is(r.status, 201, JSON.stringify(r.body));
  assert.equal(
    r.body.Messages.map((m: { Role: string; State: string }) => `${m.Role} ${m.State}`),
    ['Agent PLANNED', 'Customer PLANNED'],
  );
  const got = await p.eventually(async () => {
    const mine = rx.received.filter((x) => x.body.NotificationId === r.body.NotificationId);
    return mine.length === 2 ? mine : undefined;
  }, 'both webhooks');
  const byRole = Object.fromEntries(got.map((x) => [x.body.Role, x.body.Attachments]));
  assert.equal(byRole.Customer, [
    { DocId: 'policy-4711.pdf', DeliveryMode: 'SECURE_LINK', ExpireDays: 7 },
    { DocId: 'terms.pdf', DeliveryMode: 'INLINE', RoleFilter: ['Customer'] },
  ]);
  assert.equal(byRole.Agent, [
    { DocId: 'policy-4711.pdf', DeliveryMode: 'SECURE_LINK', ExpireDays: 7 },
    { DocId: 'commission-note.pdf', DeliveryMode: 'SECURE_LINK', RoleFilter: ['Agent'] },
  ]);
  // the request's references are kept with the notification
  const g = await p.call('GET', `${HUB}/send-requests/getById?requestId=${r.body.RequestId}`, { token });
  assert.is(g.body.Attachments.length, 3);
});

test('a service that takes no attachments: its messages with attachments FAIL with ATTACHMENTS_NOT_SUPPORTED; nothing left to send is a 422', async () => {
  const s = await configure(p, 'acme', {
    receiverUrl: rx.url,
    settings: { SupportsAttachments: false },
    preferencePolicy: 'BYPASS',
  });
  await addAgentRule(s);
  const agentsOnly = await send(
    withAgent(s.code, { Attachments: [{ DocId: 'for-agents.pdf', RoleFilter: ['Agent'] }] }),
  );
  assert.is(agentsOnly.status, 201, JSON.stringify(agentsOnly.body));
  assert.equal(
    agentsOnly.body.Messages.map((m: { Role: string; State: string; Reason?: string }) =>
      `${m.Role} ${m.State} ${m.Reason ?? ''}`.trim(),
    ),
    ['Agent FAILED ATTACHMENTS_NOT_SUPPORTED', 'Customer PLANNED'],
  );
  const delivered = await p.eventually(
    async () => rx.received.find((x) => x.body.NotificationId === agentsOnly.body.NotificationId),
    "the customer's webhook",
  );
  assert.is(delivered.body.Role, 'Customer');
  assert.is(delivered.body.Attachments, undefined, 'no attachment reaches a message it does not apply to');

  const forAllBody = withAgent(s.code, { Attachments: [{ DocId: 'for-all.pdf' }] });
  const forAll = await send(forAllBody);
  assert.is(forAll.status, 422, JSON.stringify(forAll.body));
  assert.is(forAll.body.code, 'SEND.NOT_SENDABLE');
  assert.equal(
    forAll.body.details.Messages.map((m: { Reason: string }) => m.Reason),
    ['ATTACHMENTS_NOT_SUPPORTED', 'ATTACHMENTS_NOT_SUPPORTED'],
  );
  const stored = await p.call('GET', `${HUB}/send-requests/getById?requestId=${forAllBody.RequestId}`, { token });
  assert.is(stored.status, 404);
});

test('bad attachment descriptors are a 400 naming the field, and store nothing', async () => {
  const s = await configure(p, 'acme', { receiverUrl: rx.url });
  for (const [attachments, field] of [
    [Array.from({ length: 6 }, (_, i) => ({ DocId: `d${i}` })), 'Attachments'],
    [[{ DocId: 'd', DeliveryMode: 'CARRIER_PIGEON' }], 'Attachments.0.DeliveryMode'],
    [[{ DocId: 'd', DeliveryMode: 'INLINE', ExpireDays: 5 }], 'Attachments.0.ExpireDays'],
    [[{ DocId: '   ' }], 'Attachments.0.DocId'],
  ] as const) {
    const body = aSend(s.code, { Attachments: attachments });
    const r = await send(body);
    assert.is(r.status, 400, JSON.stringify(r.body));
    assert.is(r.body.details[0].field, field);
    assert.is((await p.call('GET', `${HUB}/send-requests/getById?requestId=${body.RequestId}`, { token })).status, 404);
  }
});

test.run();
