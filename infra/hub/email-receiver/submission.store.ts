import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/**
 * The reference EMAIL receiver's durable inbox (one SQLite file): a submission is stored, committed, and
 * only then acknowledged with a 2xx (the receiver contract: "take responsibility durably before
 * acknowledging"). The ClientRequestId is the key: a repeated submission of one attempt finds its row
 * and is not sent twice. States: `pending` (to send), `reporting` (sent or failed, the receipt not yet
 * taken by the hub), `done`.
 */
export type Submission = {
  clientRequestId: string;
  callbackId: string;
  callbackUrl: string;
  tenant: string;
  messageId: string;
  to: string;
  subject: string;
  text: string | null;
  html: string | null;
  state: 'pending' | 'reporting' | 'done';
  /** the receipt to report: DELIVERED or FAILED */
  outcome: 'DELIVERED' | 'FAILED' | null;
  providerRef: string | null;
  retryable: number;
  tries: number;
  nextAt: number;
  receivedAt: number;
};

export type SubmissionStore = {
  /** true when stored now, false when the ClientRequestId was there already (a duplicate) */
  accept(s: Omit<Submission, 'state' | 'outcome' | 'providerRef' | 'retryable' | 'tries' | 'nextAt'>): boolean;
  /** the oldest rows due at `now` in a state, at most `limit` */
  due(state: 'pending' | 'reporting', now: number, limit: number): Submission[];
  sent(id: string, outcome: 'DELIVERED' | 'FAILED', providerRef: string, retryable: boolean, now: number): void;
  retryLater(id: string, nextAt: number): void;
  reported(id: string): void;
  get(id: string): Submission | undefined;
  close(): void;
};

export function openSubmissionStore(file: string): SubmissionStore {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { timeout: 5000 });
  db.pragma('journal_mode = WAL');
  // a 2xx promises the submission survives the receiver's crash: committed through the WAL
  db.pragma('synchronous = FULL');
  db.exec(`CREATE TABLE IF NOT EXISTS submissions (
    client_request_id TEXT PRIMARY KEY, callback_id TEXT NOT NULL, callback_url TEXT NOT NULL, tenant TEXT NOT NULL,
    message_id TEXT NOT NULL, recipient TEXT NOT NULL, subject TEXT NOT NULL, text TEXT, html TEXT,
    state TEXT NOT NULL, outcome TEXT, provider_ref TEXT, retryable INTEGER NOT NULL DEFAULT 0,
    tries INTEGER NOT NULL DEFAULT 0, next_at INTEGER NOT NULL, received_at INTEGER NOT NULL)`);
  db.exec('CREATE INDEX IF NOT EXISTS submissions_due ON submissions (state, next_at)');
  const row = (r: Record<string, unknown> | undefined): Submission | undefined =>
    r === undefined
      ? undefined
      : {
          clientRequestId: r.client_request_id as string,
          callbackId: r.callback_id as string,
          callbackUrl: r.callback_url as string,
          tenant: r.tenant as string,
          messageId: r.message_id as string,
          to: r.recipient as string,
          subject: r.subject as string,
          text: (r.text as string | null) ?? null,
          html: (r.html as string | null) ?? null,
          state: r.state as Submission['state'],
          outcome: (r.outcome as Submission['outcome']) ?? null,
          providerRef: (r.provider_ref as string | null) ?? null,
          retryable: r.retryable as number,
          tries: r.tries as number,
          nextAt: r.next_at as number,
          receivedAt: r.received_at as number,
        };
  const insert =
    db.prepare(`INSERT OR IGNORE INTO submissions (client_request_id, callback_id, callback_url, tenant, message_id, recipient, subject, text, html, state, next_at, received_at)
    VALUES (@clientRequestId, @callbackId, @callbackUrl, @tenant, @messageId, @to, @subject, @text, @html, 'pending', @receivedAt, @receivedAt)`);
  const due = db.prepare('SELECT * FROM submissions WHERE state = ? AND next_at <= ? ORDER BY next_at LIMIT ?');
  const sent = db.prepare(
    "UPDATE submissions SET state = 'reporting', outcome = ?, provider_ref = ?, retryable = ?, tries = 0, next_at = ? WHERE client_request_id = ?",
  );
  const later = db.prepare('UPDATE submissions SET tries = tries + 1, next_at = ? WHERE client_request_id = ?');
  const reported = db.prepare("UPDATE submissions SET state = 'done' WHERE client_request_id = ?");
  const get = db.prepare('SELECT * FROM submissions WHERE client_request_id = ?');
  return {
    accept: (s) => insert.run(s).changes === 1,
    due: (state, now, limit) => (due.all(state, now, limit) as Array<Record<string, unknown>>).map((r) => row(r)!),
    sent: (id, outcome, providerRef, retryable, now) => void sent.run(outcome, providerRef, retryable ? 1 : 0, now, id),
    retryLater: (id, nextAt) => void later.run(nextAt, id),
    reported: (id) => void reported.run(id),
    get: (id) => row(get.get(id) as Record<string, unknown> | undefined),
    close: () => db.close(),
  };
}
