import type { Observation } from '../../../domain/hub/classification.ts';
import { checkRestWebhookSettings, type RestWebhookSettings } from '../../../domain/hub/rest-webhook.settings.ts';
import { type HttpClient, httpFailureOf } from '../../../infra/core/http-client.port.ts';
import type { CommDeliveryDriver, DriverRequest } from '../driver.contracts.ts';
import { type HubSettings, numberSetting, SETTING, TenantTokenError, type TenantTokens } from '../hub.contracts.ts';

/**
 * The built-in REST_WEBHOOK driver (spec "Outbound webhook contract"): one POST of the accepted outbound
 * content to the service's Url, through the platform's outbound HTTP client (SSRF guard, OUTBOUND_ALLOW,
 * redirects never followed).
 *
 * - Body (JSON): the content (Subject, BodyText or BodyHtml, or for PROVIDER_MANAGED the template identity
 *   and Parameters), the recipient, ClientRequestId, CallbackId, CallbackPath (and CallbackUrl), the attempt
 *   number, the receipt mode and the notification's references (docs/hub.md#the-rest_webhook-driver has the
 *   schema).
 * - Headers: `Authorization: Bearer <platform tenant token>` (TenantTokens: a configured client's, else the
 *   tenant's machine client's, minted in-process; none: no header),
 *   Standard Webhooks `webhook-id` (= ClientRequestId), `webhook-timestamp`, `webhook-signature` under the
 *   service's signing secrets, `Idempotency-Key` (= ClientRequestId), `X-Comm-Client-Request-Id`,
 *   `X-Comm-Callback-Id`, `X-Comm-Tenant`.
 * - Timeouts: Settings.ConnectTimeoutMs / ReadTimeoutMs, else the global `comm-hub.webhook.connect-timeout-ms`
 *   / `comm-hub.webhook.read-timeout-ms` read at dispatch (defaults 5000 / 10000). The connect timeout ends a
 *   call that never connected (nothing sent: a definite retryable failure); the read timeout one that
 *   waited for an answer after sending (uncertain).
 * - A token that cannot be fetched is a failure before anything was sent (retryable, or permanent when the
 *   identity provider refuses the credentials). A 401 drops the cached token (the next attempt fetches a
 *   new one); it is still a 4xx, a definite permanent rejection, as the spec's table says.
 */
export const REST_WEBHOOK = 'REST_WEBHOOK';
export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;
export const DEFAULT_READ_TIMEOUT_MS = 10_000;
const MAX_BODY_KEPT = 2000;

export type RestWebhookDeps = {
  http: HttpClient;
  tokens: TenantTokens;
  settings: HubSettings;
  /** process defaults when neither the service nor the configuration sets a timeout */
  defaults?: { connectTimeoutMs?: number; readTimeoutMs?: number };
};

/** what the receiver gets (documented in docs/hub.md#the-rest_webhook-driver and the receiver contract) */
export function webhookBody(r: DriverRequest): Record<string, unknown> {
  const m = r.message;
  const c = m.Content;
  return {
    ClientRequestId: r.attempt.ClientRequestId,
    CallbackId: r.attempt.CallbackId,
    CallbackPath: r.callbackPath,
    CallbackUrl: r.callbackUrl,
    Tenant: r.tenant,
    NotificationId: r.notification.NotificationId,
    RequestId: r.notification.RequestId,
    NotificationCode: r.notification.NotificationCode,
    MessageId: m.MessageId,
    AttemptNo: r.attempt.AttemptNo,
    Role: m.Role,
    Channel: m.Channel,
    Recipient: m.Recipient,
    ...(c !== undefined && {
      TemplateMode: c.TemplateMode,
      TemplateId: c.TemplateId,
      TemplateCode: c.TemplateCode,
      LanguageId: c.LanguageId,
      ContentType: c.ContentType,
      ...(c.Subject !== undefined && { Subject: c.Subject }),
      ...(c.BodyText !== undefined && { BodyText: c.BodyText }),
      ...(c.BodyHtml !== undefined && { BodyHtml: c.BodyHtml }),
      ...(c.Parameters !== undefined && { Parameters: c.Parameters }),
    }),
    ...(m.Attachments !== undefined && { Attachments: m.Attachments }),
    ReceiptMode: m.ReceiptMode,
    ...(r.notification.SenderApp !== undefined && { SenderApp: r.notification.SenderApp }),
    ...(r.notification.RefType !== undefined && { RefType: r.notification.RefType }),
    ...(r.notification.RefNumber !== undefined && { RefNumber: r.notification.RefNumber }),
    ...(r.notification.ExpiresAt !== undefined && { ExpiresAt: r.notification.ExpiresAt }),
  };
}

export function createRestWebhookDriver(deps: RestWebhookDeps): CommDeliveryDriver {
  const connectDefault = deps.defaults?.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const readDefault = deps.defaults?.readTimeoutMs ?? DEFAULT_READ_TIMEOUT_MS;
  return {
    driverType: REST_WEBHOOK,
    validateSettings: (settings, channel) => checkRestWebhookSettings(settings, channel),
    async deliver(r): Promise<Observation> {
      const settings = r.service.Settings as RestWebhookSettings;
      const connectTimeoutMs =
        settings.ConnectTimeoutMs ??
        (await numberSetting(deps.settings, r.tenant, SETTING.connectTimeoutMs, connectDefault, 1, 120_000));
      const readTimeoutMs =
        settings.ReadTimeoutMs ??
        (await numberSetting(deps.settings, r.tenant, SETTING.readTimeoutMs, readDefault, 1, 600_000));
      let token: string | undefined;
      try {
        token = await deps.tokens.token(r.tenant, r.signal);
      } catch (err) {
        const retryable = !(err instanceof TenantTokenError) || err.retryable;
        return {
          kind: 'not-sent',
          permanent: !retryable,
          message: `no platform tenant token: ${err instanceof Error ? err.message : String(err)}`,
        };
      }
      const body = JSON.stringify(webhookBody(r));
      try {
        const res = await deps.http.send({
          method: 'POST',
          url: settings.Url,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            ...(token !== undefined && { authorization: `Bearer ${token}` }),
            'x-comm-client-request-id': r.attempt.ClientRequestId,
            'x-comm-callback-id': r.attempt.CallbackId,
            'x-comm-tenant': r.tenant,
          },
          body,
          idempotencyId: r.attempt.ClientRequestId,
          ...(r.signingSecrets.length > 0 && { signing: { secrets: r.signingSecrets } }),
          connectTimeoutMs,
          readTimeoutMs,
          // the two phase timeouts end the call first; this only bounds the whole exchange
          timeoutMs: connectTimeoutMs + readTimeoutMs + 1000,
          ...(r.signal !== undefined && { signal: r.signal }),
        });
        if (res.status === 401 && token !== undefined) deps.tokens.invalidate(r.tenant, token);
        return {
          kind: 'response',
          status: res.status,
          ...(res.retryAfterMs !== undefined && { retryAfterMs: res.retryAfterMs }),
          body: res.body.slice(0, MAX_BODY_KEPT),
        };
      } catch (err) {
        const failure = httpFailureOf(err) ?? { phase: 'exchange' as const, reason: 'network' as const };
        return {
          kind: 'failure',
          phase: failure.phase,
          reason: failure.reason,
          message: err instanceof Error ? err.message : String(err),
        };
      }
    },
  };
}
