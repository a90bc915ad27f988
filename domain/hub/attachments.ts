import { ROLE } from './config.model.ts';
import type { Violation } from './hub.errors.ts';
import type { Attachment } from './notification.model.ts';

/**
 * Attachments of a send request (spec: "Up to five caller-owned document-management references (DocId,
 * DeliveryMode, ExpireDays, RoleFilter)"). The hub never holds the documents: it passes the references
 * to the messages they apply to, and the receiver resolves them.
 *
 * - DocId: the caller's document reference, 1–256 characters, not blank;
 * - DeliveryMode: SECURE_LINK (the default: the receiver sends a link that expires) or INLINE (the
 *   receiver attaches the document itself). The spec shows SECURE_LINK only; INLINE is ours, anything else
 *   is refused so a typo cannot silently change how a document travels;
 * - ExpireDays: 1–3650 whole days, the lifetime of a SECURE_LINK (refused with INLINE: nothing expires);
 * - RoleFilter: a role name or a list of them (1–20); the attachment goes only with messages to those
 *   roles' recipients (absent: every message). Which messages carry what is decided per message at
 *   acceptance (domain/hub/plan.ts); a message with attachments whose delivery service declares
 *   SupportsAttachments false fails with ATTACHMENTS_NOT_SUPPORTED.
 */
export const MAX_ATTACHMENTS = 5;
export const DELIVERY_MODES = ['SECURE_LINK', 'INLINE'] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];
export const DEFAULT_DELIVERY_MODE: DeliveryMode = 'SECURE_LINK';
export const MAX_EXPIRE_DAYS = 3650;

export type AttachmentInput = {
  DocId: string;
  DeliveryMode?: string;
  ExpireDays?: number;
  RoleFilter?: string | string[];
};

export function checkAttachments(attachments: readonly AttachmentInput[]): Violation[] {
  const v: Violation[] = [];
  if (attachments.length > MAX_ATTACHMENTS)
    v.push({ field: 'Attachments', message: `must have at most ${MAX_ATTACHMENTS} entries` });
  attachments.forEach((a, i) => {
    const f = (name: string) => `Attachments.${i}${name === '' ? '' : `.${name}`}`;
    if (typeof a !== 'object' || a === null) {
      v.push({ field: f(''), message: 'must be an object' });
      return;
    }
    if (typeof a.DocId !== 'string' || a.DocId.trim() === '' || a.DocId.length > 256)
      v.push({ field: f('DocId'), message: 'is required: a document reference of 1-256 characters' });
    const mode = a.DeliveryMode ?? DEFAULT_DELIVERY_MODE;
    if (!(DELIVERY_MODES as readonly string[]).includes(mode))
      v.push({ field: f('DeliveryMode'), message: `must be one of ${DELIVERY_MODES.join(', ')}` });
    if (a.ExpireDays !== undefined) {
      if (!Number.isInteger(a.ExpireDays) || a.ExpireDays < 1 || a.ExpireDays > MAX_EXPIRE_DAYS)
        v.push({ field: f('ExpireDays'), message: `must be a whole number of days from 1 to ${MAX_EXPIRE_DAYS}` });
      else if (mode === 'INLINE')
        v.push({ field: f('ExpireDays'), message: 'is for SECURE_LINK only (an INLINE document does not expire)' });
    }
    if (a.RoleFilter !== undefined) {
      const roles = Array.isArray(a.RoleFilter) ? a.RoleFilter : [a.RoleFilter];
      if (roles.length === 0 || roles.length > 20) v.push({ field: f('RoleFilter'), message: 'must name 1-20 roles' });
      roles.forEach((r, j) => {
        if (typeof r !== 'string' || !ROLE.test(r))
          v.push({
            field: `${f('RoleFilter')}${Array.isArray(a.RoleFilter) ? `.${j}` : ''}`,
            message: 'must be a role name',
          });
      });
    }
  });
  return v;
}

/** a checked attachment as stored and sent: DeliveryMode made explicit, RoleFilter a list */
export function normalizeAttachment(a: AttachmentInput): Attachment {
  const filter = a.RoleFilter === undefined ? undefined : Array.isArray(a.RoleFilter) ? a.RoleFilter : [a.RoleFilter];
  return {
    DocId: a.DocId,
    DeliveryMode: a.DeliveryMode ?? DEFAULT_DELIVERY_MODE,
    ...(a.ExpireDays !== undefined && { ExpireDays: a.ExpireDays }),
    ...(filter !== undefined && { RoleFilter: filter }),
  };
}

/** the attachments a message to `role` carries */
export const attachmentsFor = (attachments: readonly Attachment[], role: string): Attachment[] =>
  attachments.filter((a) => a.RoleFilter === undefined || a.RoleFilter.includes(role));
