/**
 * The class of a delivery's last error, for operators sorting dead letters: one of a few
 * stable names, from the HTTP status when there was an answer, else from the error the target adapter
 * wrote (commands/bridge/targets/*, delivery.params.ts).
 *
 * | class | what |
 * |---|---|
 * | `http-4xx` | the receiver refused the call (a 4xx other than 408 and 429) |
 * | `http-5xx` | the receiver failed (5xx), or kept answering 408 / 429 |
 * | `http-3xx` | a redirect (never followed) |
 * | `timeout` | no answer in time |
 * | `destination-refused` | the SSRF guard refused the address (OUTBOUND_ALLOW) |
 * | `network` | the connection failed (refused, reset, DNS) |
 * | `parameter` | a target parameter could not be resolved or converted (no call was made) |
 * | `mail` | the SMTP server refused or failed |
 * | `other` | anything else |
 */
export const DELIVERY_ERROR_CLASSES = [
  'http-4xx',
  'http-5xx',
  'http-3xx',
  'timeout',
  'destination-refused',
  'network',
  'parameter',
  'mail',
  'other',
] as const;
export type DeliveryErrorClass = (typeof DELIVERY_ERROR_CLASSES)[number];

const PARAMETER = /^(conversion: |[A-Z][A-Z0-9_]*: |no target adapter )/;
const NETWORK =
  /ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EPIPE|socket hang up|other side closed|network/i;

export function deliveryErrorClass(error: string, httpStatus?: number): DeliveryErrorClass {
  if (httpStatus !== undefined) {
    if (httpStatus >= 300 && httpStatus < 400) return 'http-3xx';
    if (httpStatus === 408 || httpStatus === 429 || httpStatus >= 500) return 'http-5xx';
    if (httpStatus >= 400) return 'http-4xx';
  }
  if (/destination refused/i.test(error)) return 'destination-refused';
  if (/timed out|timeout/i.test(error)) return 'timeout';
  if (NETWORK.test(error)) return 'network';
  if (/\bsmtp\b|\bmail\b/i.test(error)) return 'mail';
  if (PARAMETER.test(error)) return 'parameter';
  return 'other';
}
