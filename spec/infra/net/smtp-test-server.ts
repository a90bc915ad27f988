// A real SMTP server for mail specs (not a spec itself): the `smtp-server` package on 127.0.0.1 port 0,
// recording every message it accepts (envelope, raw text, parsed headers and body), with hooks that
// refuse a recipient or the data with a chosen reply code.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type Received = {
  mailFrom: string;
  rcptTo: string[];
  raw: string;
  /** lower-case names; encoded words decoded; a repeated header keeps its last value */
  headers: Record<string, string>;
  /** the decoded single-part body */
  body: string;
};

export type Refusal = { code: number; message: string };

export type SmtpTestServer = {
  port: number;
  received: Received[];
  /** answer RCPT TO for an address: a refusal, or undefined to accept */
  onRcpt: (address: string) => Refusal | undefined;
  /** answer the end of DATA: a refusal, or undefined to accept */
  onData: () => Refusal | undefined;
  /** connections opened so far */
  connections: number;
  close(): Promise<void>;
};

const refusal = (r: Refusal) => Object.assign(new Error(r.message), { responseCode: r.code });

export async function startSmtpTestServer(): Promise<SmtpTestServer> {
  const state: SmtpTestServer = {
    port: 0,
    received: [],
    onRcpt: () => undefined,
    onData: () => undefined,
    connections: 0,
    close: async () => undefined,
  };
  const server = new SMTPServer({
    authOptional: true,
    // no certificate here: STARTTLS is not offered (the senders under test connect in plain text)
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      state.connections++;
      callback();
    },
    onRcptTo(address, _session, callback) {
      const r = state.onRcpt(address.address);
      callback(r === undefined ? undefined : refusal(r));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const r = state.onData();
        if (r !== undefined) return callback(refusal(r));
        const raw = Buffer.concat(chunks).toString('utf8');
        const { headers, body } = parseMessage(raw);
        state.received.push({
          mailFrom: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
          rcptTo: session.envelope.rcptTo.map((a) => a.address),
          raw,
          headers,
          body,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  state.port = (server.server.address() as AddressInfo).port;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`); whitespace between two of them vanishes. */
export function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _charset: string, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(decodeQuotedPrintableBytes(text.replace(/_/g, ' '))).toString('utf8'),
    );
}

function decodeQuotedPrintableBytes(text: string): number[] {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(c, 'utf8'));
    }
  }
  return bytes;
}

export function parseMessage(raw: string): { headers: Record<string, string>; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = split < 0 ? raw : raw.slice(0, split);
  const rawBody = split < 0 ? '' : raw.slice(split + 4);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    headers[line.slice(0, colon).trim().toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  let body: string;
  if (encoding === 'quoted-printable') {
    body = Buffer.from(decodeQuotedPrintableBytes(rawBody.replace(/=\r\n/g, ''))).toString('utf8');
  } else if (encoding === 'base64') {
    body = Buffer.from(rawBody.replace(/\s+/g, ''), 'base64').toString('utf8');
  } else {
    body = rawBody;
  }
  return { headers, body: body.replace(/\r\n$/, '') };
}
