import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com, "Signature scheme"): the headers
 * `webhook-id` (the message id, stable across retries: receivers deduplicate with it), `webhook-timestamp`
 * (Unix seconds, checked by receivers against replays) and `webhook-signature`: `v1,<base64 HMAC-SHA256>`
 * of `${id}.${timestamp}.${body}` under each secret, space-separated. Several signatures are how a secret
 * rotation works: during the overlap both the new and the previous secret sign, and a receiver holding
 * either accepts the message.
 *
 * A secret is `whsec_` + base64 of the key bytes (the prefix is optional on input, as in the reference
 * implementation).
 */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

export const webhookKey = (secret: string): Buffer =>
  Buffer.from(secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret, 'base64');

/** `v1,<sig>` per secret, space-separated */
export function webhookSignature(
  id: string,
  timestampSeconds: number,
  body: string,
  secrets: readonly string[],
): string {
  const content = `${id}.${timestampSeconds}.${body}`;
  return secrets
    .map((secret) => `v1,${createHmac('sha256', webhookKey(secret)).update(content, 'utf8').digest('base64')}`)
    .join(' ');
}

/** the three headers of a signed message */
export function webhookHeaders(
  id: string,
  timestampSeconds: number,
  body: string,
  secrets: readonly string[],
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': webhookSignature(id, timestampSeconds, body, secrets),
  };
}
