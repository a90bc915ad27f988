/**
 * What one physical submission observed, and what it means (spec "Outbound webhook contract",
 * classification of observations):
 *
 * | observation                                   | outcome                                           |
 * |-----------------------------------------------|---------------------------------------------------|
 * | 2xx                                           | ACCEPTED (a body is never parsed for DELIVERED)   |
 * | 4xx except 429                                | REJECTED: definite permanent                      |
 * | 429, a recognized connect failure             | RETRYABLE: definite, nothing was submitted        |
 * | 5xx                                           | UNCERTAIN: hold retry and fallback, alert, verify |
 * | read timeout after possible submission        | UNCERTAIN                                         |
 * | reset, TLS or other failure after connecting  | UNCERTAIN ("may be uncertain": the hub assumes so) |
 *
 * Not in the spec's table, decided here: a 1xx or 3xx (redirects are never followed) is REJECTED, the
 * receiver answered and did not take the work; a destination the SSRF guard refuses is REJECTED (nothing
 * was sent and the same address is refused again); a failure before anything was sent (no tenant token,
 * no signing secret) is RETRYABLE or REJECTED as the driver says; an abort of our own (shutdown) during the
 * exchange is UNCERTAIN.
 */
export type FailurePhase = 'connect' | 'exchange';
export type FailureReason =
  | 'refused'
  | 'timeout'
  | 'reset'
  | 'tls'
  | 'dns'
  | 'network'
  | 'aborted'
  | 'destination-refused';

export type Observation =
  | { kind: 'response'; status: number; retryAfterMs?: number; body?: string }
  | { kind: 'failure'; phase: FailurePhase; reason: FailureReason; message: string }
  /** the driver did not submit anything (a setting, a credential) */
  | { kind: 'not-sent'; permanent: boolean; message: string };

export type Outcome =
  | { kind: 'ACCEPTED'; httpStatus?: number }
  | { kind: 'REJECTED'; reason: string; httpStatus?: number }
  | { kind: 'RETRYABLE'; reason: string; httpStatus?: number; retryAfterMs?: number }
  | { kind: 'UNCERTAIN'; reason: string; cause: 'SERVER_ERROR' | 'READ_TIMEOUT' | 'CONNECTION'; httpStatus?: number };

const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}…` : s);

export function classify(o: Observation): Outcome {
  switch (o.kind) {
    case 'response': {
      const s = o.status;
      const body = o.body !== undefined && o.body.trim() !== '' ? `: ${clip(o.body.trim().replace(/\s+/g, ' '))}` : '';
      if (s >= 200 && s < 300) return { kind: 'ACCEPTED', httpStatus: s };
      if (s === 429)
        return {
          kind: 'RETRYABLE',
          reason: `the receiver answered 429${body}`,
          httpStatus: s,
          ...(o.retryAfterMs !== undefined && { retryAfterMs: o.retryAfterMs }),
        };
      if (s >= 500)
        return { kind: 'UNCERTAIN', reason: `the receiver answered ${s}${body}`, cause: 'SERVER_ERROR', httpStatus: s };
      return { kind: 'REJECTED', reason: `the receiver answered ${s}${body}`, httpStatus: s };
    }
    case 'failure': {
      if (o.reason === 'destination-refused') return { kind: 'REJECTED', reason: clip(o.message) };
      if (o.phase === 'connect') return { kind: 'RETRYABLE', reason: `connect failure: ${clip(o.message)}` };
      if (o.reason === 'timeout')
        return {
          kind: 'UNCERTAIN',
          reason: `read timeout after submission: ${clip(o.message)}`,
          cause: 'READ_TIMEOUT',
        };
      return {
        kind: 'UNCERTAIN',
        reason: `connection failure after submission (${o.reason}): ${clip(o.message)}`,
        cause: 'CONNECTION',
      };
    }
    case 'not-sent':
      return o.permanent
        ? { kind: 'REJECTED', reason: `not sent: ${clip(o.message)}` }
        : { kind: 'RETRYABLE', reason: `not sent: ${clip(o.message)}` };
  }
}
