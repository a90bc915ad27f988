import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { attachmentsFor, checkAttachments, normalizeAttachment } from '../../../domain/hub/attachments.ts';
import { normalizeSendRequest } from '../../../domain/hub/send-request.ts';

const fields = (a: unknown[]) => checkAttachments(a as never).map((v) => v.field);

test('attachments: at most five references; DocId required; DeliveryMode SECURE_LINK or INLINE; ExpireDays for links only; RoleFilter role names', () => {
  assert.equal(
    fields([
      { DocId: 'd1' },
      { DocId: 'd2', DeliveryMode: 'SECURE_LINK', ExpireDays: 7, RoleFilter: ['Agent', 'Customer'] },
      { DocId: 'd3', DeliveryMode: 'INLINE', RoleFilter: 'Agent' },
    ]),
    [],
  );
  assert.equal(fields(Array.from({ length: 6 }, (_, i) => ({ DocId: `d${i}` }))), ['Attachments']);
  assert.equal(
    fields([
      { DocId: ' ' },
      { DocId: 'd', DeliveryMode: 'FAX' },
      { DocId: 'd', ExpireDays: 0 },
      { DocId: 'd', DeliveryMode: 'INLINE', ExpireDays: 3 },
      { DocId: 'd', RoleFilter: [] },
      { DocId: 'd', RoleFilter: ['ok', 'not a role'] },
    ]),
    [
      'Attachments.0.DocId',
      'Attachments.1.DeliveryMode',
      'Attachments.2.ExpireDays',
      'Attachments.3.ExpireDays',
      'Attachments.4.RoleFilter',
      'Attachments.5.RoleFilter.1',
    ].flatMap((f, i) => (i === 0 ? ['Attachments', f] : [f])),
    'six entries: the count too',
  );
});

test('normalized: DeliveryMode explicit (SECURE_LINK by default), RoleFilter a list; a role gets the unfiltered ones and its own', () => {
  const a = [
    normalizeAttachment({ DocId: 'all' }),
    normalizeAttachment({ DocId: 'agents', RoleFilter: 'Agent', ExpireDays: 3 }),
  ];
  assert.equal(a, [
    { DocId: 'all', DeliveryMode: 'SECURE_LINK' },
    { DocId: 'agents', DeliveryMode: 'SECURE_LINK', ExpireDays: 3, RoleFilter: ['Agent'] },
  ]);
  assert.equal(
    attachmentsFor(a, 'Customer').map((x) => x.DocId),
    ['all'],
  );
  assert.equal(
    attachmentsFor(a, 'Agent').map((x) => x.DocId),
    ['all', 'agents'],
  );
  const r = normalizeSendRequest(
    { RequestId: 'r', NotificationCode: 'c', Attachments: [{ DocId: 'd', DeliveryMode: 'PIGEON' }] },
    'UTC',
  );
  assert.is(r.ok, false);
});

test.run();
