import {
  type ApiDestinationReader,
  createApiDestinationReader,
} from '../../commands/bridge/api-destinations.commands.ts';
import type { ConfigCenter } from '../../commands/bridge/bridge.contracts.ts';
import { type ConnectionReader, createConnectionReader } from '../../commands/bridge/connections.commands.ts';
import type { TargetAdapter } from '../../commands/bridge/delivery.contracts.ts';
import { createOAuthTokenCache } from '../../commands/bridge/oauth-token.cache.ts';
import type { ServiceRegistryCommands } from '../../commands/bridge/service-registry.commands.ts';
import { createApiDestinationTarget } from '../../commands/bridge/targets/api-destination.target.ts';
import { createMailTarget } from '../../commands/bridge/targets/mail.target.ts';
import { createMessageQueueTarget } from '../../commands/bridge/targets/message-queue.target.ts';
import { createPresetHttpTarget, serviceRegistryFrom } from '../../commands/bridge/targets/preset-http.target.ts';
import { createUserMessageBoxTarget } from '../../commands/bridge/targets/user-message-box.target.ts';
import type { Clock } from '../core/clock.port.ts';
import type { Config } from '../core/config.ts';
import type { EventStore } from '../core/event-store.port.ts';
import type { MailSender } from '../core/mail.port.ts';
import { loadKeySecrets } from '../identity/key-secret.ts';
import { createOutboundHttpClient } from '../net/outbound-http.client.ts';
import { createSmtpMailSender, smtpMailOptions } from '../net/smtp-mail.ts';

/**
 * The real target adapters, by TypeId: 1 mail (SMTP through nodemailer: SMTP_*; without
 * SMTP_HOST every mail delivery fails, retryable, naming the missing setting), 2 platform message queue
 * (topic logs in the event store), 3 preset HTTP client (the service registry, resolved at delivery time;
 * this process's SERVICE_REGISTRY as the last resort, for a worker process started with it before the
 * serving process seeded it), 4 API destination (with its
 * connections, secrets and signing secrets opened with the key-encryption secret, OAuth tokens cached),
 * 5 user message box.
 *
 * Every HTTP call (preset HTTP, API destinations, OAuth token fetches) goes through one outbound client
 * (infra/net/outbound-http.client.ts): the SSRF guard with OUTBOUND_ALLOW, DELIVERY_TIMEOUT_MS as its
 * default timeout, the delivery id as idempotency id, Standard Webhooks signing of API destinations.
 * `close()` ends the SMTP connection pool and the HTTP connection pool.
 */
export function createTargetAdapters(deps: {
  config: Config;
  eventStore: EventStore;
  clock: Clock;
  configCenter: ConfigCenter;
  services?: Pick<ServiceRegistryCommands, 'resolve'>;
}): { adapters: TargetAdapter[]; close(): void } {
  const { config, eventStore, clock, configCenter } = deps;
  const fromEnv = serviceRegistryFrom(config.serviceRegistry);
  const services = deps.services;
  const http = createOutboundHttpClient({ allow: config.outboundAllow, timeoutMs: config.bridge.deliveryTimeoutMs });
  const smtp = smtpMailOptions(config.smtp);
  const sender = smtp !== undefined ? createSmtpMailSender(smtp) : undefined;
  const mail: MailSender = sender ?? {
    send: async () => {
      throw new Error('no SMTP server is configured (SMTP_HOST)');
    },
  };
  let messageIdDomain = 'platform';
  try {
    messageIdDomain = new URL(config.publicBaseUrl).hostname || messageIdDomain;
  } catch {
    // validated at start
  }
  // the secrets' key: read only when an API destination is delivered (a process without deliveries never
  // creates DATA_DIR/key-encryption.secret for it)
  let connections: ConnectionReader | undefined;
  let destinations: ApiDestinationReader | undefined;
  const connectionReader = () =>
    (connections ??= createConnectionReader({ eventStore, secret: loadKeySecrets(config) }));
  const destinationReader = () =>
    (destinations ??= createApiDestinationReader({ eventStore, secret: loadKeySecrets(config), clock }));
  const adapters: TargetAdapter[] = [
    createMailTarget({ mail, defaultFrom: config.smtp.from, messageIdDomain }),
    createMessageQueueTarget({ eventStore, clock }),
    createPresetHttpTarget({
      http,
      registry: async (name, ruleTenant) =>
        (services === undefined ? undefined : await services.resolve(ruleTenant, name)) ?? fromEnv(name, ruleTenant),
    }),
    createApiDestinationTarget({
      http,
      destinations: { get: (tenant, name) => destinationReader().get(tenant, name) },
      connections: { resolve: (tenant, name) => connectionReader().resolve(tenant, name) },
      oauth: createOAuthTokenCache({ http, clock }),
      configCenter,
    }),
    createUserMessageBoxTarget({ eventStore, clock }),
  ];
  return {
    adapters,
    close: () => {
      sender?.close();
      void http.close();
    },
  };
}
