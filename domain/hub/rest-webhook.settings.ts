import { CHANNEL_CODE, CONTENT_TYPES } from './config.model.ts';
import type { Violation } from './hub.errors.ts';

/**
 * Settings of the built-in REST_WEBHOOK driver (spec "Service Settings (REST_WEBHOOK)"), nonsecret only:
 * - Url: where the receiver takes submissions (http or https, no credentials in it); the spec's table
 *   leaves the address out, a webhook needs one;
 * - ConnectTimeoutMs, ReadTimeoutMs: per service; absent, the global `comm-hub.webhook.connect-timeout-ms`
 *   and `comm-hub.webhook.read-timeout-ms` read at dispatch (defaults 5000 and 10000);
 * - SupportedChannels: nonempty channel codes (the service's Channel, when set, among them);
 * - SupportedContentTypes: nonempty, TEXT and/or HTML;
 * - SupportsAttachments: false refuses messages with attachment descriptors.
 * Omitted capability declarations leave the interpretation to the receiver. Any other key is refused:
 * credentials never go here (they come from the platform's configuration).
 */
export type RestWebhookSettings = {
  Url: string;
  ConnectTimeoutMs?: number;
  ReadTimeoutMs?: number;
  SupportedChannels?: string[];
  SupportedContentTypes?: Array<'TEXT' | 'HTML'>;
  SupportsAttachments?: boolean;
};

const KEYS = new Set([
  'Url',
  'ConnectTimeoutMs',
  'ReadTimeoutMs',
  'SupportedChannels',
  'SupportedContentTypes',
  'SupportsAttachments',
]);
export const MAX_CONNECT_TIMEOUT_MS = 120_000;
export const MAX_READ_TIMEOUT_MS = 600_000;

const field = (name: string) => `Settings.${name}`;

export function checkRestWebhookSettings(settings: Record<string, unknown>, channel: string | undefined): Violation[] {
  const out: Violation[] = [];
  for (const key of Object.keys(settings))
    if (!KEYS.has(key))
      out.push({ field: field(key), message: 'is not a REST_WEBHOOK setting (credentials never go into settings)' });
  const url = settings.Url;
  if (typeof url !== 'string' || url === '')
    out.push({ field: field('Url'), message: 'is required: the receiver URL' });
  else {
    try {
      const u = new URL(url);
      if (u.protocol !== 'http:' && u.protocol !== 'https:')
        out.push({ field: field('Url'), message: 'must be http or https' });
      if (u.username !== '' || u.password !== '')
        out.push({ field: field('Url'), message: 'must not carry credentials' });
    } catch {
      out.push({ field: field('Url'), message: 'is not a URL' });
    }
  }
  const int = (name: string, max: number) => {
    const v = settings[name];
    if (v !== undefined && (!Number.isInteger(v) || (v as number) < 1 || (v as number) > max))
      out.push({ field: field(name), message: `must be an integer from 1 to ${max}` });
  };
  int('ConnectTimeoutMs', MAX_CONNECT_TIMEOUT_MS);
  int('ReadTimeoutMs', MAX_READ_TIMEOUT_MS);
  const channels = settings.SupportedChannels;
  if (channels !== undefined) {
    if (
      !Array.isArray(channels) ||
      channels.length === 0 ||
      !channels.every((c) => typeof c === 'string' && CHANNEL_CODE.test(c))
    ) {
      out.push({ field: field('SupportedChannels'), message: 'must be a nonempty array of channel codes' });
    } else if (channel !== undefined && !channels.includes(channel)) {
      out.push({ field: field('SupportedChannels'), message: `must include the service's channel ${channel}` });
    }
  }
  const types = settings.SupportedContentTypes;
  if (
    types !== undefined &&
    (!Array.isArray(types) || types.length === 0 || !types.every((t) => CONTENT_TYPES.includes(t as 'TEXT')))
  ) {
    out.push({ field: field('SupportedContentTypes'), message: 'must be a nonempty array of TEXT and/or HTML' });
  }
  if (settings.SupportsAttachments !== undefined && typeof settings.SupportsAttachments !== 'boolean')
    out.push({ field: field('SupportsAttachments'), message: 'must be a boolean' });
  return out;
}
