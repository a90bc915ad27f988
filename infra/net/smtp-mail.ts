import nodemailer from 'nodemailer';
import type { SmtpConfig } from '../core/config.ts';
import type { MailMessage, MailSender, MailSendFailure } from '../core/mail.port.ts';

/**
 * The MailSender port over SMTP with nodemailer: pooled connections (at most `maxConnections` open to the
 * server, each reused for up to `maxMessages` messages), STARTTLS when the server offers it (`requireTLS`
 * insists on it, `ignoreTLS` never tries it), implicit TLS with `secure` (port 465).
 *
 * The message's `messageId` becomes its Message-ID header (stable per delivery: receivers deduplicate
 * resends); `priority` sets X-Priority, X-MSMail-Priority and Importance (nodemailer's mapping).
 *
 * Failures are normalised to MailSendFailure: `responseCode` is the SMTP reply that refused the message
 * (when several recipients were refused with different codes, a temporary 4xx wins: a retry may reach
 * them), absent when no answer came (connection refused or lost, TLS, timeouts).
 */
export type SmtpMailOptions = {
  host: string;
  port: number;
  /** implicit TLS from the first byte (port 465); else plain, upgraded by STARTTLS when offered */
  secure?: boolean;
  auth?: { user: string; pass: string };
  /** never upgrade with STARTTLS, even when offered */
  ignoreTLS?: boolean;
  /** fail unless the connection is upgraded with STARTTLS */
  requireTLS?: boolean;
  /** pooled connections to the server (default 5) */
  maxConnections?: number;
  /** messages per connection before it is replaced (default 100) */
  maxMessages?: number;
  /** connecting, and waiting for the greeting (default 10 s each) */
  connectionTimeoutMs?: number;
  /** inactivity on an open connection (default 60 s) */
  socketTimeoutMs?: number;
  /** hostname announced in EHLO (default: the machine's) */
  name?: string;
};

export type SmtpMailSender = MailSender & {
  /** closes the pooled connections (at shutdown) */
  close(): void;
};

type NodemailerError = Error & {
  code?: string;
  responseCode?: number;
  response?: string;
  recipient?: string;
  rejectedErrors?: NodemailerError[];
};

const addressText = (a: unknown): string =>
  typeof a === 'string'
    ? a
    : typeof a === 'object' && a !== null && 'address' in a
      ? String((a as { address: unknown }).address)
      : String(a);

function failure(err: unknown): MailSendFailure {
  if (!(err instanceof Error)) return new Error(String(err));
  const e = err as NodemailerError;
  const refusals = (e.rejectedErrors ?? []).filter((r) => typeof r.responseCode === 'number');
  const temporary = refusals.find((r) => r.responseCode! >= 400 && r.responseCode! < 500);
  const chosen = temporary ?? refusals[0] ?? e;
  const perRecipient =
    refusals.length > 1
      ? ` (${refusals.map((r) => `${r.recipient ?? '?'}: ${(r.response ?? '').slice(0, 200)}`).join('; ')})`
      : '';
  const out: MailSendFailure = new Error(`${e.message}${perRecipient}`, { cause: err });
  out.name = 'MailSendFailure';
  if (typeof chosen.responseCode === 'number') out.responseCode = chosen.responseCode;
  if (typeof chosen.response === 'string') out.response = chosen.response;
  return out;
}

export function createSmtpMailSender(options: SmtpMailOptions): SmtpMailSender {
  const transport = nodemailer.createTransport({
    pool: true,
    host: options.host,
    port: options.port,
    secure: options.secure ?? false,
    ...(options.auth !== undefined && { auth: { user: options.auth.user, pass: options.auth.pass } }),
    ...(options.ignoreTLS !== undefined && { ignoreTLS: options.ignoreTLS }),
    ...(options.requireTLS !== undefined && { requireTLS: options.requireTLS }),
    ...(options.name !== undefined && { name: options.name }),
    maxConnections: options.maxConnections ?? 5,
    maxMessages: options.maxMessages ?? 100,
    connectionTimeout: options.connectionTimeoutMs ?? 10_000,
    greetingTimeout: options.connectionTimeoutMs ?? 10_000,
    socketTimeout: options.socketTimeoutMs ?? 60_000,
    // nodemailer logs nothing unless asked; bodies and credentials must never reach a log
    logger: false,
    debug: false,
  });

  async function send(message: MailMessage) {
    let info: { accepted: unknown[]; rejected: unknown[]; response: string };
    try {
      info = await transport.sendMail({
        messageId: message.messageId,
        from: message.from,
        to: message.to,
        ...(message.cc !== undefined && message.cc.length > 0 && { cc: message.cc }),
        subject: message.subject,
        ...(message.text !== undefined && { text: message.text }),
        ...(message.html !== undefined && { html: message.html }),
        ...(message.priority !== undefined && { priority: message.priority }),
        ...(message.headers !== undefined && { headers: message.headers }),
        // plain UTF-8 bodies, never a data: or file: URL read from a payload
        disableFileAccess: true,
        disableUrlAccess: true,
      });
    } catch (err) {
      throw failure(err);
    }
    return {
      accepted: (info.accepted ?? []).map(addressText),
      rejected: (info.rejected ?? []).map(addressText),
      response: String(info.response ?? ''),
    };
  }

  return {
    send,
    close: () => transport.close(),
  };
}

/** The sender options from the configuration (SMTP_*); undefined when SMTP_HOST is not set. */
export function smtpMailOptions(smtp: SmtpConfig): SmtpMailOptions | undefined {
  if (smtp.host === undefined) return undefined;
  return {
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    ...(smtp.auth !== undefined && { auth: smtp.auth }),
    ...(smtp.startTls === 'require' && { requireTLS: true }),
    ...(smtp.startTls === 'off' && { ignoreTLS: true }),
  };
}
