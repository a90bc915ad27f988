import { api, call } from '../../api/client.ts';
import type { paths } from '../../api/schema/bridge.d.ts';

/**
 * The bridge admin API as the area's pages call it. The generated types give object-typed fields
 * (`pattern`, `event`, `variables`) as empty records, so bodies of those are passed as the API's JSON.
 */
export const ADMIN = '/api/platform/platform-pub/eventBridge/admin/v1';

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
  await call(api.bridge.POST(`${ADMIN}/test-pattern`, { body: { pattern, event: {} } as never, signal }));
};

export const testPatternWithApi = async (pattern: unknown, event: unknown, signal: AbortSignal): Promise<boolean> =>
  (await call(api.bridge.POST(`${ADMIN}/test-pattern`, { body: { pattern, event } as never, signal }))).match;

export const previewConversionWithApi = async (
  conversion: unknown,
  event: unknown,
  signal: AbortSignal,
): Promise<ConversionPreview> =>
  (await call(
    api.bridge.POST(`${ADMIN}/test-conversion`, { body: { conversion, event } as never, signal }),
  )) as ConversionPreview;
