import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { MailSender, MailSendFailure } from '../../core/mail.port.ts';
import { webhookSignature } from '../../net/webhook-signature.ts';
import { openSubmissionStore, type Submission, type SubmissionStore } from './submission.store.ts';

/**
 * The reference receiver service for the EMAIL channel: what a REST_WEBHOOK delivery service
 * points at so a new tenant has a working email channel out of the box. It implements the receiver
 * contract (spec "Outbound webhook contract"):
 *
 * - POST <path> takes one submission: verified (the Standard Webhooks signature under the service's
 *   signing secret, timestamp within 5 minutes; and, when an issuer is configured, the platform tenant
 *   token against the issuer's keys), checked (EMAIL channel, an address, rendered content), stored
 *   durably in its SQLite inbox, THEN answered 202; a repeated submission of the same attempt
 *   (ClientRequestId) answers 200 and is not sent again. 400 for what it cannot ever send (a 4xx tells the
 *   hub: definite rejection), 401 for a bad signature or token. It never answers 429 after storing.
 * - A worker sends each stored submission through SMTP (nodemailer; Message-ID `<ClientRequestId@host>`),
 *   retrying temporary SMTP failures (4xx, no answer) a few times, and reports the outcome to the hub's
 *   receipt endpoint (`X-Comm-Callback-Id`): DELIVERED when the SMTP server took the message, FAILED
 *   (Retryable false on a 5xx refusal, true when temporary failures ran out). Receipts are retried until the
 *   hub takes them (a 404 from the hub ends it: the attempt is unknown there).
 */
export type EmailReceiverOptions = {
  /** the inbox file */
  file: string;
  mail: MailSender;
  /** sender address of the mails */
  from: string;
  /** `whsec_…` secrets accepted (the delivery service's; two during a rotation); empty: signatures not checked */
  signingSecrets: string[];
  /** the platform's issuer: bearer tokens are verified against `<issuer>/cas/oidc/jwks`; undefined: not checked */
  issuer?: string;
  /** the hub's base URL for receipts (default: the CallbackUrl each submission carries) */
  hubUrl?: string;
  path?: string;
  port?: number;
  host?: string;
  now?: () => number;
  /** how often the worker looks for due work (default 500 ms; a new submission wakes it) */
  pollMs?: number;
  /** temporary SMTP failures before FAILED (default 5) */
  maxSendTries?: number;
  log?: { info(o: object, m: string): void; warn(o: object, m: string): void };
};

export type EmailReceiver = {
  url: string;
  port: number;
  store: SubmissionStore;
  runDue(): Promise<void>;
  close(): Promise<void>;
};

const MAX_BODY = 1024 * 1024;
const TOLERANCE_SECONDS = 300;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.byteLength;
      if (size > MAX_BODY) {
        reject(new Error('too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const answer = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** constant-time: one of the `v1,` signatures matches one we compute */
export function signatureValid(
  id: string,
  timestamp: string,
  body: string,
  header: string,
  secrets: readonly string[],
  nowSeconds: number,
): boolean {
  const ts = Number(timestamp);
  if (!Number.isInteger(ts) || Math.abs(nowSeconds - ts) > TOLERANCE_SECONDS) return false;
  const given = header
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => Buffer.from(s.slice(3)));
  return secrets.some((secret) => {
    const expected = Buffer.from(webhookSignature(id, ts, body, [secret]).slice(3));
    return given.some((g) => g.length === expected.length && timingSafeEqual(g, expected));
  });
}

export async function startEmailReceiver(o: EmailReceiverOptions): Promise<EmailReceiver> {
  const store = openSubmissionStore(o.file);
  const now = o.now ?? Date.now;
  const path = o.path ?? '/notify';
  const jwks =
    o.issuer === undefined ? undefined : createRemoteJWKSet(new URL(`${o.issuer.replace(/\/+$/, '')}/cas/oidc/jwks`));
  const maxTries = o.maxSendTries ?? 5;

  async function authentic(req: IncomingMessage, raw: string): Promise<string | null> {
    if (o.signingSecrets.length > 0) {
      const id = String(req.headers['webhook-id'] ?? '');
      const ok = signatureValid(
        id,
        String(req.headers['webhook-timestamp'] ?? ''),
        raw,
        String(req.headers['webhook-signature'] ?? ''),
        o.signingSecrets,
        Math.floor(now() / 1000),
      );
      if (!ok) return 'the webhook signature does not verify';
    }
    if (jwks !== undefined) {
      const token = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''))?.[1];
      if (token === undefined) return 'a bearer token is required';
      try {
        await jwtVerify(token, jwks, { issuer: o.issuer });
      } catch {
        return 'the bearer token does not verify';
      }
    }
    return null;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST' || req.url?.split('?')[0] !== path) return answer(res, 404, { error: 'not found' });
    let raw: string;
    try {
      raw = await readBody(req);
    } catch {
      return answer(res, 413, { error: 'too large' });
    }
    const refused = await authentic(req, raw);
    if (refused !== null) return answer(res, 401, { error: refused });
    // biome-ignore lint/suspicious/noExplicitAny: an outside submission, checked field by field below
    let b: Record<string, any>;
    try {
      b = JSON.parse(raw);
    } catch {
      return answer(res, 400, { error: 'the body is not JSON' });
    }
    const problems: string[] = [];
    if (typeof b.ClientRequestId !== 'string' || b.ClientRequestId === '') problems.push('ClientRequestId is required');
    if (typeof b.CallbackId !== 'string' || b.CallbackId === '') problems.push('CallbackId is required');
    if (b.Channel !== 'EMAIL') problems.push('this receiver sends the EMAIL channel only');
    if (typeof b.Recipient?.Address !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(b.Recipient.Address))
      problems.push('Recipient.Address must be a mail address');
    if (b.TemplateMode === 'PROVIDER_MANAGED')
      problems.push('this receiver renders no templates (HUB_MANAGED content only)');
    if (typeof b.BodyText !== 'string' && typeof b.BodyHtml !== 'string')
      problems.push('BodyText or BodyHtml is required');
    const callbackUrl =
      o.hubUrl !== undefined && typeof b.CallbackPath === 'string'
        ? `${o.hubUrl.replace(/\/+$/, '')}${b.CallbackPath}`
        : b.CallbackUrl;
    if (typeof callbackUrl !== 'string' || !/^https?:\/\//.test(callbackUrl))
      problems.push('CallbackUrl (or CallbackPath with a configured hub URL) is required');
    if (problems.length > 0) return answer(res, 400, { error: problems.join('; ') });
    const stored = store.accept({
      clientRequestId: b.ClientRequestId,
      callbackId: b.CallbackId,
      callbackUrl,
      tenant: String(b.Tenant ?? ''),
      messageId: String(b.MessageId ?? ''),
      to: b.Recipient.Address,
      subject: typeof b.Subject === 'string' ? b.Subject : '',
      text: typeof b.BodyText === 'string' ? b.BodyText : null,
      html: typeof b.BodyHtml === 'string' ? b.BodyHtml : null,
      receivedAt: now(),
    });
    // committed: the work is ours now
    answer(res, stored ? 202 : 200, { Accepted: true, ClientRequestId: b.ClientRequestId, Duplicate: !stored });
    if (stored) wake();
  }

  const host = o.host ?? '127.0.0.1';
  const mailHost = (() => {
    const at = o.from.lastIndexOf('@');
    return at < 0 ? 'hub-email-receiver' : o.from.slice(at + 1).replace(/>.*$/, '');
  })();

  async function send(s: Submission): Promise<void> {
    try {
      const r = await o.mail.send({
        messageId: `<${s.clientRequestId}@${mailHost}>`,
        from: o.from,
        to: [s.to],
        subject: s.subject,
        ...(s.html !== null ? { html: s.html } : { text: s.text ?? '' }),
      });
      store.sent(s.clientRequestId, 'DELIVERED', (r.response || s.clientRequestId).slice(0, 200), false, now());
    } catch (err) {
      const code = (err as MailSendFailure).responseCode;
      const why = (err instanceof Error ? err.message : String(err)).slice(0, 200);
      if (code !== undefined && code >= 500)
        store.sent(s.clientRequestId, 'FAILED', `smtp ${code}: ${why}`, false, now());
      else if (s.tries + 1 >= maxTries)
        store.sent(s.clientRequestId, 'FAILED', `smtp temporary failures: ${why}`, true, now());
      else store.retryLater(s.clientRequestId, now() + 1000 * 2 ** s.tries);
      o.log?.warn({ clientRequestId: s.clientRequestId, code, err: why }, 'mail not sent');
    }
  }

  async function report(s: Submission): Promise<void> {
    try {
      const res = await fetch(s.callbackUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-comm-callback-id': s.callbackId },
        body: JSON.stringify({
          Status: s.outcome,
          ProviderRef: s.providerRef ?? undefined,
          ...(s.outcome === 'FAILED' && { Retryable: s.retryable === 1 }),
        }),
        signal: AbortSignal.timeout(10_000),
      });
      await res.text();
      if (res.ok || res.status === 404) store.reported(s.clientRequestId);
      else store.retryLater(s.clientRequestId, now() + Math.min(60_000, 1000 * 2 ** s.tries));
    } catch {
      store.retryLater(s.clientRequestId, now() + Math.min(60_000, 1000 * 2 ** s.tries));
    }
  }

  let running: Promise<void> | undefined;
  let again = false;
  async function runDue(): Promise<void> {
    if (running !== undefined) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        for (const s of store.due('pending', now(), 50)) await send(s);
        await Promise.all(store.due('reporting', now(), 50).map(report));
      } while (again);
    })().finally(() => (running = undefined));
    return running;
  }
  const wake = () => void runDue().catch((err: unknown) => o.log?.warn({ err: String(err) }, 'receiver worker failed'));
  const timer = setInterval(wake, o.pollMs ?? 500);
  timer.unref();

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => answer(res, 500, { error: 'internal error' }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  wake(); // what a previous run left pending
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}${path}`,
    port,
    store,
    runDue,
    async close() {
      clearInterval(timer);
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await running;
      store.close();
    },
  };
}
