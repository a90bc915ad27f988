import type { MailMessage, MailSender, MailSendFailure } from '../../../infra/core/mail.port.ts';
import { type DeliveryOutcome, type DeliveryRequest, TARGET_TYPES, type TargetAdapter } from '../delivery.contracts.ts';

/**
 * The mail service target (TypeId 1): one SMTP submission per attempt, through the MailSender port.
 *
 * Parameters (their Forms already applied by the delivery engine; TENANT_PROFILE replaced by the tenant's
 * support mail group):
 * - SUBJECT: the subject (line breaks become spaces).
 * - ACCOUNT: the sender: `address`, `Name <address>`, or a display name alone (no `@`), which is sent as
 *   `"Name" <defaultFrom>` (SMTP_FROM) so a rule can say who sends without owning a mailbox.
 * - TO (required) and CC: one string of addresses separated by `,` or `;`, or an array of such strings
 *   (a JSONPATH matching several values); each `address` or `Name <address>`; duplicates dropped (by
 *   address, case-insensitively; an address in TO is dropped from CC). At most 100 recipients in all.
 * - PRIORITY: HIGH (also URGENT, HIGHEST, 1, 2), NORMAL (also MEDIUM, 3) or LOW (also LOWEST, 4, 5), any
 *   case; absent: no priority headers. Sent as X-Priority, X-MSMail-Priority and Importance.
 * - CONTENT: the rendered template. HTML when it looks like HTML (it starts with `<` and ends with `>`
 *   once trimmed, or it holds a closing tag `</p>` or a `<br>`), else plain text; a JSON-shaped template
 *   (an object or array after rendering) is sent as indented JSON text.
 *
 * The Message-ID is `<deliveryId@platform>` (unsafe characters of the id escaped as `=XX`): stable per
 * delivery, so a receiving system can tell a redelivery from a new mail; `X-Delivery-Id` and `X-Event-Id`
 * headers carry the ids too.
 *
 * Outcomes: a bad parameter (no or invalid address, unknown priority) fails without retry, naming the
 * parameter; the server refusing with 4xx is retryable, with 5xx not; no answer at all (connection
 * refused, lost, timed out) is retryable. When some recipients are refused and others accepted the
 * delivery succeeded (a retry would mail the accepted ones twice): the refused ones are in `detail`.
 */
export type MailTargetDeps = {
  mail: MailSender;
  /** the sender address used when ACCOUNT is a display name only (config SMTP_FROM) */
  defaultFrom?: string;
  /** the right-hand side of Message-IDs (default `platform`) */
  messageIdDomain?: string;
};

export const MAX_MAIL_RECIPIENTS = 100;

type Mailbox = { address: string; name?: string };
type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const ATEXT = "A-Za-z0-9!#$%&'*+/=?^_`{|}~\\p{L}\\p{N}-";
const LOCAL = `[${ATEXT}]+(?:\\.[${ATEXT}]+)*`;
const LABEL = '[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]*[\\p{L}\\p{N}])?';
const ADDRESS = new RegExp(`^${LOCAL}@${LABEL}(?:\\.${LABEL})*$`, 'u');

export const isMailAddress = (s: string): boolean => s.length <= 254 && ADDRESS.test(s);

/** Splits at `,` and `;` outside quoted strings and angle brackets. */
function splitList(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  let angle = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '\\' && i + 1 < text.length) {
      current += c + text[++i];
      continue;
    }
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === '<') angle = true;
    else if (!quoted && c === '>') angle = false;
    if (!quoted && !angle && (c === ',' || c === ';')) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** `address` or `Name <address>` (the name may be quoted). null when it is neither. */
export function parseMailbox(entry: string): Mailbox | null {
  const text = entry.trim();
  if (/[\r\n]/.test(text)) return null;
  const m = /^(.*?)\s*<([^<>]*)>$/s.exec(text);
  if (m === null) return isMailAddress(text) ? { address: text } : null;
  const address = m[2]!.trim();
  if (!isMailAddress(address)) return null;
  let name = m[1]!.trim();
  if (name.length >= 2 && name.startsWith('"') && name.endsWith('"')) name = name.slice(1, -1).replace(/\\(.)/g, '$1');
  return name === '' ? { address } : { address, name };
}

/** A TO/CC parameter value: a string of addresses or an array of them. */
export function parseAddressList(key: string, value: unknown): Parsed<Mailbox[]> {
  if (value === undefined || value === null || value === '') return { ok: true, value: [] };
  const items = Array.isArray(value) ? value : [value];
  const out: Mailbox[] = [];
  const bad: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string') {
      return {
        ok: false,
        error: `${key}: must be mail addresses (a string, or an array of strings), got ${JSON.stringify(item)?.slice(0, 100)}`,
      };
    }
    for (const entry of splitList(item)) {
      const mailbox = parseMailbox(entry);
      if (mailbox === null) bad.push(entry);
      else out.push(mailbox);
    }
  }
  if (bad.length > 0) {
    return {
      ok: false,
      error: `${key}: not a mail address: ${bad
        .slice(0, 5)
        .map((b) => JSON.stringify(b.slice(0, 100)))
        .join(', ')}`,
    };
  }
  return { ok: true, value: out };
}

export function parsePriority(value: unknown): Parsed<MailMessage['priority'] | undefined> {
  if (value === undefined || value === null || value === '') return { ok: true, value: undefined };
  const v = String(value).trim().toUpperCase();
  if (['HIGH', 'HIGHEST', 'URGENT', '1', '2'].includes(v)) return { ok: true, value: 'high' };
  if (['NORMAL', 'MEDIUM', '3'].includes(v)) return { ok: true, value: 'normal' };
  if (['LOW', 'LOWEST', '4', '5'].includes(v)) return { ok: true, value: 'low' };
  return {
    ok: false,
    error: `PRIORITY: must be HIGH, NORMAL or LOW (or 1 to 5), got ${JSON.stringify(value).slice(0, 50)}`,
  };
}

/** Decides text or HTML (see the module comment). */
export function looksLikeHtml(content: string): boolean {
  const t = content.trim();
  if (t.startsWith('<') && t.endsWith('>')) return true;
  return /<\/[A-Za-z][A-Za-z0-9]*\s*>/.test(t) || /<br\s*\/?>/i.test(t);
}

/** `=XX` escapes for everything but letters, digits, `_` and `-`: a valid, injective msg-id left part. */
const messageIdPart = (id: string): string =>
  [...Buffer.from(id, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9_-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `=${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

export const mailMessageId = (deliveryId: string, domain = 'platform'): string =>
  `<${messageIdPart(deliveryId)}@${domain}>`;

const quoteName = (name: string) => `"${name.replace(/[\r\n]+/g, ' ').replace(/["\\]/g, '\\$&')}"`;
const format = (m: Mailbox) => (m.name === undefined ? m.address : `${quoteName(m.name)} <${m.address}>`);
const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ');
const clip = (s: string, n = 500) => (s.length > n ? `${s.slice(0, n)}…` : s);

const bad = (error: string): DeliveryOutcome => ({ ok: false, retryable: false, error });

/** The sender from ACCOUNT (see the module comment). */
function sender(value: unknown, defaultFrom: string | undefined): Parsed<Mailbox> {
  if (typeof value !== 'string' || value.trim() === '')
    return { ok: false, error: 'ACCOUNT: the sender account is empty' };
  const text = value.trim();
  if (!text.includes('@')) {
    if (defaultFrom === undefined)
      return { ok: false, error: `ACCOUNT: ${JSON.stringify(text.slice(0, 100))} is not a mail address` };
    const fallback = parseMailbox(defaultFrom);
    if (fallback === null) return { ok: false, error: 'ACCOUNT: the default sender (SMTP_FROM) is not a mail address' };
    return { ok: true, value: { address: fallback.address, name: oneLine(text).slice(0, 200) } };
  }
  const list = parseAddressList('ACCOUNT', text);
  if (!list.ok) return list;
  if (list.value.length !== 1) return { ok: false, error: 'ACCOUNT: must be one sender address' };
  return { ok: true, value: list.value[0]! };
}

/** What an attempt whose submission failed answers. */
function failed(err: unknown): DeliveryOutcome {
  const e = err as MailSendFailure;
  const message = clip(oneLine(e instanceof Error ? e.message : String(err)));
  const code = typeof e?.responseCode === 'number' ? e.responseCode : undefined;
  if (code === undefined) return { ok: false, retryable: true, error: `SMTP: ${message}` };
  return { ok: false, retryable: code < 500, error: `SMTP ${code}: ${message}` };
}

export function createMailTarget(deps: MailTargetDeps): TargetAdapter {
  const { mail, defaultFrom } = deps;
  const domain = deps.messageIdDomain ?? 'platform';

  /** the message, or the reason a parameter makes it impossible */
  function compose(request: DeliveryRequest): { message: MailMessage } | { error: string } {
    const p = request.params;
    const from = sender(p.ACCOUNT, defaultFrom);
    if (!from.ok) return { error: from.error };
    const to = parseAddressList('TO', p.TO);
    if (!to.ok) return { error: to.error };
    if (to.value.length === 0) return { error: 'TO: no recipient' };
    const cc = parseAddressList('CC', p.CC);
    if (!cc.ok) return { error: cc.error };
    const seen = new Set<string>();
    const unique = (list: Mailbox[]) =>
      list.filter((m) => {
        const key = m.address.toLowerCase();
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    const toList = unique(to.value);
    const ccList = unique(cc.value);
    if (toList.length + ccList.length > MAX_MAIL_RECIPIENTS)
      return { error: `TO: at most ${MAX_MAIL_RECIPIENTS} recipients (TO and CC together)` };
    const priority = parsePriority(p.PRIORITY);
    if (!priority.ok) return { error: priority.error };
    if (p.CONTENT === undefined) return { error: 'CONTENT: no content' };
    const content = typeof p.CONTENT === 'string' ? p.CONTENT : JSON.stringify(p.CONTENT, null, 2);
    const subject =
      p.SUBJECT === undefined || p.SUBJECT === null
        ? ''
        : oneLine(typeof p.SUBJECT === 'string' ? p.SUBJECT : JSON.stringify(p.SUBJECT)).trim();
    return {
      message: {
        messageId: mailMessageId(request.deliveryId, domain),
        from: format(from.value),
        to: toList.map(format),
        ...(ccList.length > 0 && { cc: ccList.map(format) }),
        subject: subject.slice(0, 998),
        ...(typeof p.CONTENT === 'string' && looksLikeHtml(content) ? { html: content } : { text: content }),
        ...(priority.value !== undefined && { priority: priority.value }),
        headers: {
          'X-Delivery-Id': oneLine(request.deliveryId),
          'X-Event-Id': oneLine(request.event.id).slice(0, 256),
        },
      },
    };
  }

  return {
    typeId: TARGET_TYPES.mail,
    async deliver(request) {
      const composed = compose(request);
      if ('error' in composed) return bad(composed.error);
      const { signal } = request;
      if (signal.aborted) return { ok: false, retryable: true, error: 'SMTP: timed out before sending' };
      // The port cannot cancel a submission in flight: on abort the attempt answers at once (retryable);
      // should the server still accept it, the stable Message-ID lets the receiver spot the redelivery.
      let onAbort = (): void => undefined;
      const aborted = new Promise<DeliveryOutcome>((resolve) => {
        onAbort = () => resolve({ ok: false, retryable: true, error: 'SMTP: timed out waiting for the server' });
        signal.addEventListener('abort', onAbort, { once: true });
      });
      const sent = mail.send(composed.message).then((r): DeliveryOutcome => {
        if (r.accepted.length === 0)
          return { ok: false, retryable: true, error: clip(`SMTP: no recipient accepted (${r.rejected.join(', ')})`) };
        const refused = r.rejected.length > 0 ? `; refused: ${r.rejected.join(', ')}` : '';
        return { ok: true, detail: clip(`accepted: ${r.accepted.join(', ')}${refused}`) };
      }, failed);
      try {
        return await Promise.race([sent, aborted]);
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    },
  };
}
