import { type AttachmentInput, checkAttachments, normalizeAttachment } from './attachments.ts';
import { CHANNEL_CODE, CODE, LANGUAGE_ID, ROLE } from './config.model.ts';
import type { Violation } from './hub.errors.ts';
import { parseDateTime } from './local-time.ts';
import type { Attachment } from './notification.model.ts';
import { canonicalJson } from './resource.decider.ts';

/**
 * The send request (spec "Communication hub: send request" and its limits), checked and normalized before
 * anything is resolved or stored:
 * - RequestId: 1–64 characters, the tenant-local idempotency key;
 * - Payload: a JSON object of at most 64 KiB serialized (UTF-8); omitted or null becomes `{}`;
 * - LanguageId: a platform language id (the old LANGUAGE_ID field is refused, naming its replacement);
 * - SendAt, ExpiresAt: ISO local (read in the tenant's time zone) or offset date-times; ExpiresAt after
 *   SendAt when both are given;
 * - Recipients: role/channel pairs unique; each with an Address (RecipientId optional here: whether it is
 *   required depends on the rule's effective preference policy, decided per message);
 * - Attachments: at most 5 document references (domain/hub/attachments.ts: DocId, DeliveryMode, ExpireDays, RoleFilter);
 * - OriginalNotificationId: a link only (a new RequestId and the current Payload are the caller's).
 * The old PreferenceExempt field is accepted and ignored: the effective PreferencePolicy decides.
 */
export const MAX_REQUEST_ID = 64;
export const MAX_PAYLOAD_BYTES = 64 * 1024;
export { MAX_ATTACHMENTS } from './attachments.ts';
export const MAX_RECIPIENTS = 100;

export type RecipientInput = { Role: string; Channel: string; RecipientId?: string; Address?: string };

export type SendRequestInput = {
  RequestId: string;
  NotificationCode: string;
  Payload?: Record<string, unknown> | null;
  LanguageId?: string;
  SenderApp?: string;
  RefType?: string;
  RefNumber?: string;
  SendAt?: string;
  ExpiresAt?: string;
  Recipients?: RecipientInput[];
  Attachments?: AttachmentInput[];
  OriginalNotificationId?: string;
  /** no longer drives behavior (spec "Versioning") */
  PreferenceExempt?: unknown;
  /** replaced by LanguageId */
  LANGUAGE_ID?: unknown;
};

export type SendRequest = {
  RequestId: string;
  NotificationCode: string;
  Payload: Record<string, unknown>;
  LanguageId?: string;
  SenderApp?: string;
  RefType?: string;
  RefNumber?: string;
  /** instants (UTC ISO) */
  SendAt?: string;
  ExpiresAt?: string;
  Recipients: RecipientInput[];
  Attachments: Attachment[];
  OriginalNotificationId?: string;
};

const bytes = (s: string) => new TextEncoder().encode(s).length;

export function normalizeSendRequest(
  input: SendRequestInput,
  timeZone: string,
): { ok: true; request: SendRequest } | { ok: false; violations: Violation[] } {
  const v: Violation[] = [];
  if (typeof input.RequestId !== 'string' || input.RequestId.length === 0 || input.RequestId.length > MAX_REQUEST_ID) {
    v.push({ field: 'RequestId', message: `is required, 1-${MAX_REQUEST_ID} characters` });
  }
  if (typeof input.NotificationCode !== 'string' || !CODE.test(input.NotificationCode))
    v.push({ field: 'NotificationCode', message: 'is required: a notification code' });
  if (input.LANGUAGE_ID !== undefined) v.push({ field: 'LANGUAGE_ID', message: 'is replaced by LanguageId' });
  if (input.LanguageId !== undefined && !LANGUAGE_ID.test(input.LanguageId))
    v.push({ field: 'LanguageId', message: 'must be a platform language id such as en, en_US or zh-CN' });
  const payload = input.Payload ?? {};
  if (typeof payload !== 'object' || Array.isArray(payload))
    v.push({ field: 'Payload', message: 'must be a JSON object (or null)' });
  else {
    const size = bytes(JSON.stringify(payload));
    if (size > MAX_PAYLOAD_BYTES)
      v.push({ field: 'Payload', message: `is ${size} bytes serialized; at most ${MAX_PAYLOAD_BYTES} (64 KiB)` });
  }
  const time = (field: 'SendAt' | 'ExpiresAt'): string | undefined => {
    const raw = input[field];
    if (raw === undefined) return undefined;
    const at = parseDateTime(raw, timeZone);
    if (at === null)
      v.push({
        field,
        message: 'must be an ISO 8601 local or offset date-time (2026-03-01T10:00:00, 2026-03-01T10:00:00+01:00)',
      });
    return at ?? undefined;
  };
  const sendAt = time('SendAt');
  const expiresAt = time('ExpiresAt');
  if (sendAt !== undefined && expiresAt !== undefined && expiresAt <= sendAt)
    v.push({ field: 'ExpiresAt', message: 'must be later than SendAt' });

  const recipients = input.Recipients ?? [];
  if (recipients.length > MAX_RECIPIENTS)
    v.push({ field: 'Recipients', message: `must have at most ${MAX_RECIPIENTS} entries` });
  const pairs = new Set<string>();
  recipients.forEach((r, i) => {
    if (typeof r.Role !== 'string' || !ROLE.test(r.Role))
      v.push({ field: `Recipients.${i}.Role`, message: 'is required: a role name' });
    if (typeof r.Channel !== 'string' || !CHANNEL_CODE.test(r.Channel))
      v.push({ field: `Recipients.${i}.Channel`, message: 'is required: a channel code' });
    if (typeof r.Address !== 'string' || r.Address.trim() === '')
      v.push({ field: `Recipients.${i}.Address`, message: 'is required' });
    const pair = `${r.Role}\u0000${r.Channel}`;
    if (pairs.has(pair))
      v.push({
        field: `Recipients.${i}`,
        message: `role ${r.Role} and channel ${r.Channel} are given twice (role/channel pairs must be unique)`,
      });
    pairs.add(pair);
  });

  const attachments = input.Attachments ?? [];
  if (!Array.isArray(attachments)) v.push({ field: 'Attachments', message: 'must be an array' });
  else v.push(...checkAttachments(attachments));
  if (v.length > 0) return { ok: false, violations: v };
  return {
    ok: true,
    request: {
      RequestId: input.RequestId,
      NotificationCode: input.NotificationCode,
      Payload: payload as Record<string, unknown>,
      ...(input.LanguageId !== undefined && { LanguageId: input.LanguageId }),
      ...(input.SenderApp !== undefined && { SenderApp: input.SenderApp }),
      ...(input.RefType !== undefined && { RefType: input.RefType }),
      ...(input.RefNumber !== undefined && { RefNumber: input.RefNumber }),
      ...(sendAt !== undefined && { SendAt: sendAt }),
      ...(expiresAt !== undefined && { ExpiresAt: expiresAt }),
      Recipients: recipients.map((r) => ({
        Role: r.Role,
        Channel: r.Channel,
        ...(r.RecipientId !== undefined && { RecipientId: r.RecipientId }),
        Address: r.Address!.trim(),
      })),
      Attachments: attachments.map(normalizeAttachment),
      ...(input.OriginalNotificationId !== undefined && { OriginalNotificationId: input.OriginalNotificationId }),
    },
  };
}

/**
 * What an "equivalent replay" compares (spec "Send request rules" 1): the request as sent, normalized
 * (key order, Payload null = omitted = {}, the ignored PreferenceExempt dropped); its SHA-256 (computed by
 * the command layer) is kept with the notification. Times are compared as written: the same local time
 * re-sent after the tenant's time zone changed is still the same request.
 */
export function requestFingerprint(input: SendRequestInput): string {
  const { PreferenceExempt: _p, LANGUAGE_ID: _l, Payload, ...rest } = input;
  return canonicalJson({ ...rest, Payload: Payload ?? {} });
}
