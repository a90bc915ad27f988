import { api, call, type RequestBody } from '../../api/client.ts';
import type { paths } from '../../api/schema/bridge.d.ts';

/** The bridge admin API as the area's pages call it, and the bodies its pages build. */
export const ADMIN = '/api/platform/platform-pub/eventBridge/admin/v1';

type AdminPath = keyof paths & `${typeof ADMIN}/${string}`;
/** the JSON body of an admin operation: `AdminBody<'/rules', 'post'>` */
export type AdminBody<
  P extends AdminPath extends `${typeof ADMIN}${infer S}` ? S : never,
  M extends keyof paths[`${typeof ADMIN}${P}`],
> = RequestBody<paths, `${typeof ADMIN}${P}`, M>;

/** an event (or any JSON object) as the test operations take it */
export type JsonObject = AdminBody<'/test-pattern', 'post'>['event'];
export type ConversionBody = AdminBody<'/test-conversion', 'post'>['conversion'];

type Json<P extends keyof paths, M extends 'get' | 'post' | 'put'> = paths[P][M] extends {
  responses:
    | { 200: { content: { 'application/json': infer R } } }
    | { 201: { content: { 'application/json': infer R } } };
}
  ? R
  : never;

export type Bus = NonNullable<Json<'/api/platform/platform-pub/eventBridge/admin/v1/buses', 'get'>['items']>[number];
export type BusDetail = Json<'/api/platform/platform-pub/eventBridge/admin/v1/buses/{bus}', 'get'>;
export type Source = NonNullable<BusDetail['sources']>[number];
export type Rule = Json<'/api/platform/platform-pub/eventBridge/admin/v1/rules/{id}', 'get'>;
export type PlatformRule = NonNullable<
  Json<'/api/platform/platform-pub/eventBridge/admin/v1/platform-rules', 'get'>['items']
>[number];

export type ConversionPreview = { ok: true; body: unknown; missing: string[] } | { ok: false; error: string };

/** test-pattern with an empty event: resolves when the API accepts the pattern */
export const validatePatternWithApi = async (pattern: unknown, signal: AbortSignal): Promise<void> => {
  await call(api.bridge.POST(`${ADMIN}/test-pattern`, { body: { pattern, event: {} }, signal }));
};

export const testPatternWithApi = async (pattern: unknown, event: JsonObject, signal: AbortSignal): Promise<boolean> =>
  (await call(api.bridge.POST(`${ADMIN}/test-pattern`, { body: { pattern, event }, signal }))).match;

export const previewConversionWithApi = async (
  conversion: ConversionBody,
  event: JsonObject,
  signal: AbortSignal,
): Promise<ConversionPreview> =>
  (await call(
    api.bridge.POST(`${ADMIN}/test-conversion`, { body: { conversion, event }, signal }),
  )) as ConversionPreview;
