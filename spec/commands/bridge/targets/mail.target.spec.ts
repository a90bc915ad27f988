import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type {
  DeliveryOutcome,
  DeliveryRequest,
  TargetAdapter,
} from '../../../../commands/bridge/delivery.contracts.ts';
import {
  createMailTarget,
  looksLikeHtml,
  mailMessageId,
  parseAddressList,
  parsePriority,
} from '../../../../commands/bridge/targets/mail.target.ts';
import type { BridgeEvent, Target } from '../../../../domain/bridge/model.ts';
import type { MailSender } from '../../../../infra/core/mail.port.ts';
import { createSmtpMailSender, type SmtpMailSender } from '../../../../infra/net/smtp-mail.ts';
import { type SmtpTestServer, startSmtpTestServer } from '../../../infra/net/smtp-test-server.ts';

const test = suite('mail target (TypeId 1) against a real SMTP server');
let smtp: SmtpTestServer;
let sender: SmtpMailSender;
let target: TargetAdapter;

const event: BridgeEvent = {
  id: 'alert-1',
  source: 'batchv2:job',
  type: 'batchv2:Alter:JobAlter',
  dataContentType: 'application/json',
  eventBusName: 'platform-batch',
  data: { jobName: 'nightly-close', status: 'FAILED' },
};

const mailTarget: Target = {
  id: 1,
  typeId: 1,
  pushRetryStrategy: 'BACKOFF_RETRY',
  errorTolerance: 'ALL',
  deadLetterRecord: false,
  params: [],
  conversion: { kind: 'complete' },
};

let seq = 0;
function request(params: Record<string, unknown>, o: Partial<DeliveryRequest> = {}): DeliveryRequest {
  seq++;
  return {
    deliveryId: `d${seq}-7f3a9c`,
    attemptId: `a${seq}`,
    attempt: 1,
    tenant: 'acme',
    ruleTenant: 'platform',
    ruleId: 'platform-batch-job-alert',
    target: mailTarget,
    event,
    payload: event,
    params,
    signal: new AbortController().signal,
    ...o,
  };
}

const baseParams = {
  SUBJECT: 'Job nightly-close failed',
  ACCOUNT: 'Batch Alerts <alerts@insurer.example>',
  TO: 'support@acme.example',
  CONTENT: 'The job nightly-close failed.',
};

function failure(outcome: DeliveryOutcome) {
  assert.is(outcome.ok, false, JSON.stringify(outcome));
  return outcome as Extract<DeliveryOutcome, { ok: false }>;
}

test.before(async () => {
  smtp = await startSmtpTestServer();
  sender = createSmtpMailSender({ host: '127.0.0.1', port: smtp.port, ignoreTLS: true });
  target = createMailTarget({ mail: sender, defaultFrom: 'noreply@insurer.example' });
});

test.after(async () => {
  sender.close();
  await smtp.close();
});

test.before.each(() => {
  smtp.onRcpt = () => undefined;
  smtp.onData = () => undefined;
});

test('typeId is 1', () => {
  assert.is(target.typeId, 1);
});

test('sends the mail: From, To, Cc, Subject, Message-ID from the delivery id, priority, HTML body', async () => {
  const before = smtp.received.length;
  const req = request({
    ...baseParams,
    TO: 'ops@acme.example; "Doe, Jane" <jane@acme.example>',
    CC: ['audit@acme.example', 'OPS@acme.example'], // ops is in TO already: dropped from Cc
    PRIORITY: 'HIGH',
    CONTENT: '<h1>Job failed</h1><p>nightly-close: <b>FAILED</b></p>',
  });
  const outcome = await target.deliver(req);
  assert.ok(outcome.ok, JSON.stringify(outcome));
  const got = smtp.received[before]!;
  assert.is(got.mailFrom, 'alerts@insurer.example');
  assert.equal(got.rcptTo.sort(), ['audit@acme.example', 'jane@acme.example', 'ops@acme.example']);
  assert.is(got.headers.from, 'Batch Alerts <alerts@insurer.example>');
  assert.is(got.headers.to, 'ops@acme.example, "Doe, Jane" <jane@acme.example>');
  assert.is(got.headers.cc, 'audit@acme.example');
  assert.is(got.headers.subject, 'Job nightly-close failed');
  assert.is(got.headers['message-id'], `<${req.deliveryId}@platform>`);
  assert.is(got.headers['x-delivery-id'], req.deliveryId);
  assert.is(got.headers['x-event-id'], 'alert-1');
  assert.is(got.headers['x-priority'], '1 (Highest)');
  assert.is(got.headers.importance, 'High');
  assert.match(got.headers['content-type'] ?? '', /^text\/html/);
  assert.is(got.body, '<h1>Job failed</h1><p>nightly-close: <b>FAILED</b></p>');
});

test('plain text content, a numeric priority, a display-name-only ACCOUNT uses the default sender', async () => {
  const before = smtp.received.length;
  const outcome = await target.deliver(
    request({ ...baseParams, ACCOUNT: 'Batch Alerts', PRIORITY: '5', CONTENT: 'Job failed.\nCheck a < b > c.' }),
  );
  assert.ok(outcome.ok, JSON.stringify(outcome));
  const got = smtp.received[before]!;
  assert.is(got.headers.from, 'Batch Alerts <noreply@insurer.example>');
  assert.is(got.mailFrom, 'noreply@insurer.example');
  assert.match(got.headers['content-type'] ?? '', /^text\/plain/);
  assert.is(got.body.replace(/\r\n/g, '\n'), 'Job failed.\nCheck a < b > c.');
  assert.is(got.headers['x-priority'], '5 (Lowest)');
  assert.is(got.headers.cc, undefined);
});

test('TO as an array (a JSONPATH with several matches) and without priority: no priority headers', async () => {
  const before = smtp.received.length;
  const outcome = await target.deliver(
    request({ ...baseParams, TO: ['a@acme.example', 'b@acme.example, c@acme.example'] }),
  );
  assert.ok(outcome.ok);
  const got = smtp.received[before]!;
  assert.equal(got.rcptTo, ['a@acme.example', 'b@acme.example', 'c@acme.example']);
  assert.is(got.headers['x-priority'], undefined);
});

test('a JSON-shaped CONTENT (an object) is sent as indented JSON text', async () => {
  const before = smtp.received.length;
  const outcome = await target.deliver(request({ ...baseParams, CONTENT: { job: 'nightly-close', status: 'FAILED' } }));
  assert.ok(outcome.ok);
  assert.equal(JSON.parse(smtp.received[before]!.body), { job: 'nightly-close', status: 'FAILED' });
});

test('a redelivery of the same delivery carries the same Message-ID', async () => {
  const before = smtp.received.length;
  const first = request(baseParams);
  await target.deliver(first);
  await target.deliver({ ...first, attemptId: 'again', attempt: 2 });
  assert.is(smtp.received[before]!.headers['message-id'], smtp.received[before + 1]!.headers['message-id']);
});

test('invalid addresses fail without retry, naming the parameter, and send nothing', async () => {
  const before = smtp.received.length;
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ ...baseParams, TO: 'ops@acme.example, not-an-address' }, /^TO: not a mail address: "not-an-address"/],
    [{ ...baseParams, TO: '' }, /^TO: no recipient/],
    [{ ...baseParams, TO: [{ email: 'x@y.example' }] }, /^TO: must be mail addresses/],
    [{ ...baseParams, CC: 'ok@acme.example;bad@' }, /^CC: not a mail address: "bad@"/],
    [{ ...baseParams, ACCOUNT: 'alerts@' }, /^ACCOUNT: not a mail address/],
    [{ ...baseParams, ACCOUNT: 'a@x.example, b@x.example' }, /^ACCOUNT: must be one sender address/],
    [{ ...baseParams, PRIORITY: 'SOON' }, /^PRIORITY: must be HIGH, NORMAL or LOW/],
    [{ ...baseParams, TO: 'evil@acme.example\r\nBcc: all@acme.example' }, /^TO: not a mail address/],
  ];
  for (const [params, error] of cases) {
    const f = failure(await target.deliver(request(params)));
    assert.is(f.retryable, false, JSON.stringify(params));
    assert.match(f.error, error);
  }
  assert.is(smtp.received.length, before);
});

test('a display-name ACCOUNT without a default sender is a bad parameter', async () => {
  const noDefault = createMailTarget({ mail: sender });
  const f = failure(await noDefault.deliver(request({ ...baseParams, ACCOUNT: 'Batch Alerts' })));
  assert.is(f.retryable, false);
  assert.match(f.error, /^ACCOUNT:/);
});

test('the server refusing a recipient with 4xx is retryable, with 5xx it is not', async () => {
  smtp.onRcpt = () => ({ code: 450, message: 'mailbox busy, try later' });
  const temporary = failure(await target.deliver(request(baseParams)));
  assert.is(temporary.retryable, true);
  assert.match(temporary.error, /^SMTP 450: /);
  smtp.onRcpt = () => ({ code: 550, message: 'no such mailbox' });
  const permanent = failure(await target.deliver(request(baseParams)));
  assert.is(permanent.retryable, false);
  assert.match(permanent.error, /^SMTP 550: .*no such mailbox/);
});

test('the server refusing the data with 4xx is retryable, with 5xx it is not', async () => {
  smtp.onData = () => ({ code: 451, message: 'local error in processing' });
  assert.is(failure(await target.deliver(request(baseParams))).retryable, true);
  smtp.onData = () => ({ code: 554, message: 'message rejected as spam' });
  const permanent = failure(await target.deliver(request(baseParams)));
  assert.is(permanent.retryable, false);
  assert.match(permanent.error, /spam/);
});

test('some recipients refused, others accepted: delivered, the refused ones in the detail', async () => {
  smtp.onRcpt = (a) => (a === 'gone@acme.example' ? { code: 550, message: 'gone' } : undefined);
  const outcome = await target.deliver(request({ ...baseParams, TO: 'ops@acme.example, gone@acme.example' }));
  assert.ok(outcome.ok, JSON.stringify(outcome));
  assert.match((outcome as { detail?: string }).detail ?? '', /refused: gone@acme.example/);
});

test('no SMTP server answering is retryable', async () => {
  const nowhere = createSmtpMailSender({ host: '127.0.0.1', port: 1, ignoreTLS: true });
  try {
    const f = failure(await createMailTarget({ mail: nowhere }).deliver(request(baseParams)));
    assert.is(f.retryable, true);
    assert.match(f.error, /^SMTP: /);
  } finally {
    nowhere.close();
  }
});

test('the abort signal (per-call timeout) ends the attempt as retryable', async () => {
  const never: MailSender = { send: () => new Promise(() => undefined) };
  const controller = new AbortController();
  const pending = createMailTarget({ mail: never }).deliver(request(baseParams, { signal: controller.signal }));
  controller.abort();
  const f = failure(await pending);
  assert.is(f.retryable, true);
  assert.match(f.error, /timed out/);
});

const unit = suite('mail target: parameter parsing');

unit('address lists: separators, quoted names, angle addresses', () => {
  const r = parseAddressList('TO', 'a@x.example; "Doe, J" <j@x.example>,B <b@x.example> ; ');
  assert.equal(r, {
    ok: true,
    value: [
      { address: 'a@x.example' },
      { address: 'j@x.example', name: 'Doe, J' },
      { address: 'b@x.example', name: 'B' },
    ],
  });
  assert.equal(parseAddressList('CC', undefined), { ok: true, value: [] });
  assert.equal(parseAddressList('TO', 'ünï@bücher.example'), { ok: true, value: [{ address: 'ünï@bücher.example' }] });
  assert.is(parseAddressList('TO', 'a@b@c').ok, false);
  assert.is(parseAddressList('TO', 'a@-x.example').ok, false);
  assert.is(parseAddressList('TO', 42).ok, false);
});

unit('priorities', () => {
  for (const v of ['HIGH', 'high', 'Urgent', '1', 2])
    assert.equal(parsePriority(v), { ok: true, value: 'high' }, String(v));
  for (const v of ['NORMAL', 'medium', '3']) assert.equal(parsePriority(v), { ok: true, value: 'normal' }, String(v));
  for (const v of ['LOW', 'lowest', '4', 5]) assert.equal(parsePriority(v), { ok: true, value: 'low' }, String(v));
  assert.equal(parsePriority(undefined), { ok: true, value: undefined });
  assert.is(parsePriority('6').ok, false);
});

unit('HTML or text', () => {
  assert.ok(looksLikeHtml('<p>hi</p>'));
  assert.ok(looksLikeHtml('  <!DOCTYPE html><html></html>\n'));
  assert.ok(looksLikeHtml('Hello<br>world'));
  assert.ok(looksLikeHtml('Job <b>failed</b> today'));
  assert.not.ok(looksLikeHtml('if a<b and c>d then'));
  assert.not.ok(looksLikeHtml('Job failed.'));
});

unit('Message-IDs: safe characters kept, others escaped injectively', () => {
  assert.is(mailMessageId('3f2a-9b_c'), '<3f2a-9b_c@platform>');
  assert.is(mailMessageId('a/b:c=d', 'mail.example'), '<a=2Fb=3Ac=3Dd@mail.example>');
});

test.run();
unit.run();
