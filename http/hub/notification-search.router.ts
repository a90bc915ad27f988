import { Router } from 'express';
import { coreError } from '../../domain/core/core.errors.ts';
import { parseDateTime } from '../../domain/hub/local-time.ts';
import type { NotificationSearch, SnapshotQueries } from '../../projections/hub/snapshots.projection.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import type { RouteRegistry } from '../core/route-registry.ts';
import { tenantOf } from '../core/tenancy.ts';
import type { JsonSchema } from '../core/validate.ts';
import { HUB_ADMIN_SCOPE, HUB_OPERATOR_SCOPE, NOTIFICATION_SEARCH_PATH } from './hub.paths.ts';
import { pageOf, pageQuery } from './hub.schemas.ts';
import { requireAnyScope } from './send.router.ts';

/**
 * The operators' notification search (docs/hub.md#endpoints), scope hub:operator or hub:admin:
 *
 *   GET /comm/v1/notifications/search?notificationCode=&requestId=&notificationId=&recipientId=
 *                                     &acceptedFrom=&acceptedTo=&pageNo=&pageSize=
 *
 * Every filter is optional and they combine (all must match); newest acceptance first. acceptedFrom and
 * acceptedTo take ISO local date-times (the tenant's time zone) or offsets, both ends included. It reads
 * the `hub.snapshots` read model (its `uses`), so a notification appears a moment after its acceptance;
 * the live state is the notification's own view (`/send-requests/getById?notificationId=`).
 */
export function createNotificationSearchRouter(deps: {
  queries: SnapshotQueries;
  bearer: Pick<BearerAuth, 'authenticate'>;
  registry: RouteRegistry;
  timeZoneOf(tenant: string): Promise<string>;
}): Router {
  const router = Router();
  const id = (maxLength: number): JsonSchema => ({ type: 'string', minLength: 1, maxLength });
  const at: JsonSchema = {
    type: 'string',
    minLength: 1,
    maxLength: 40,
    description: 'ISO local (tenant time zone) or offset date-time',
  };
  const item: JsonSchema = {
    type: 'object',
    properties: {
      NotificationId: { type: 'string' },
      RequestId: { type: 'string' },
      NotificationCode: { type: 'string' },
      SnapshotId: { type: 'string' },
      AcceptedAt: { type: 'string' },
      RecipientIds: { type: 'array', items: { type: 'string' } },
    },
  };
  deps.registry.route(
    router,
    {
      method: 'get',
      path: NOTIFICATION_SEARCH_PATH,
      summary: "the tenant's notifications matching every given filter, newest first",
      schemas: {
        query: pageQuery({
          notificationCode: id(64),
          requestId: id(64),
          notificationId: id(64),
          recipientId: id(128),
          acceptedFrom: at,
          acceptedTo: at,
        }),
        response: pageOf(item),
      },
      tags: ['hub operator actions'],
    },
    deps.bearer.authenticate,
    requireAnyScope(HUB_OPERATOR_SCOPE, HUB_ADMIN_SCOPE),
    async (req, res) => {
      const q = req.query as unknown as Record<string, string | undefined> & { pageNo: number; pageSize: number };
      const tenant = tenantOf(res);
      const zone = q.acceptedFrom !== undefined || q.acceptedTo !== undefined ? await deps.timeZoneOf(tenant) : '';
      const instant = (field: 'acceptedFrom' | 'acceptedTo') => {
        const v = q[field];
        if (v === undefined) return undefined;
        const parsed = parseDateTime(v, zone);
        if (parsed === null)
          throw coreError('REQUEST.INVALID', `${field} must be an ISO local or offset date-time`, [
            { in: 'query', field, message: 'must be an ISO local or offset date-time', keyword: 'format' },
          ]);
        return parsed;
      };
      const by: NotificationSearch = {
        ...(q.notificationCode !== undefined && { NotificationCode: q.notificationCode }),
        ...(q.requestId !== undefined && { RequestId: q.requestId }),
        ...(q.notificationId !== undefined && { NotificationId: q.notificationId }),
        ...(q.recipientId !== undefined && { RecipientId: q.recipientId }),
      };
      const from = instant('acceptedFrom');
      const to = instant('acceptedTo');
      if (from !== undefined) by.AcceptedFrom = from;
      if (to !== undefined) by.AcceptedTo = to;
      res.json(await deps.queries.search(tenant, by, q.pageNo, q.pageSize));
    },
  );
  return router;
}
