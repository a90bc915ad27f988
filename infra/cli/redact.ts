/**
 * What `platform replay` never prints: secrets and what opens them. The log holds secret
 * values sealed (configuration-center secrets, connection secrets, signing secrets, signing keys' private
 * parts) and hashes of passwords and client secrets; an entry written in clear by an earlier version may
 * still hold a secret configuration value. A timeline line or an aggregate state shows instead:
 * - `[sealed]` for any sealed value (`enc:v1:…`, `enc:v2:…`);
 * - `[secret]` for the value of an object marked `secret: true` (a configuration entry, its state too);
 * - `[redacted]` for fields that are secrets or open them by name (password and secret hashes, private keys).
 */
const SEALED = /^enc:v\d+:/;
const SECRET_FIELDS = new Set([
  'passwordHash',
  'secretHash',
  'encryptedPrivateJwk',
  'privateJwk',
  'password',
  'clientSecret',
  'refreshToken',
  'accessToken',
]);
const MAX_DEPTH = 200;

export function redactSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return SEALED.test(value) ? '[sealed]' : value;
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, depth + 1));
  const o = value as Record<string, unknown>;
  const secretValue = o.secret === true;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (typeof v === 'string' && SEALED.test(v)) out[k] = '[sealed]';
    else if (v !== undefined && v !== null && SECRET_FIELDS.has(k)) out[k] = '[redacted]';
    else if (secretValue && k === 'value' && typeof v === 'string') out[k] = '[secret]';
    else out[k] = redactSecrets(v, depth + 1);
  }
  return out;
}
