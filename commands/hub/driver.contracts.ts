import type { Observation } from '../../domain/hub/classification.ts';
import type { DeliveryService } from '../../domain/hub/config.model.ts';
import type { Violation } from '../../domain/hub/hub.errors.ts';
import type { Message, NotificationRecord } from '../../domain/hub/notification.model.ts';

/**
 * `CommDeliveryDriver` (spec: "Further drivers implement the interface CommDeliveryDriver with members
 * driverType, validateSettings, deliver, and are discovered as registered components"). A driver submits one
 * attempt of one message to a receiver and answers what it observed; the hub classifies the observation
 * (domain/hub/classification.ts) and records the outcome. Drivers are registered in the driver registry
 * (driver.registry.ts): REST_WEBHOOK is built in, a deployment adds its own (HubServiceDeps.drivers).
 *
 * `validateSettings` is local only (no call to the receiver): it answers the violations of a service's
 * nonsecret Settings, named `Settings.<key>`. Credentials never reach a driver through settings: the
 * request carries the signing secrets and the driver asks TenantTokens for the tenant token.
 */
export type DeliveryAttempt = {
  AttemptId: string;
  AttemptNo: number;
  ClientRequestId: string;
  CallbackId: string;
};

export type DriverRequest = {
  tenant: string;
  notification: Pick<
    NotificationRecord,
    'NotificationId' | 'RequestId' | 'NotificationCode' | 'SenderApp' | 'RefType' | 'RefNumber' | 'ExpiresAt'
  >;
  message: Message;
  attempt: DeliveryAttempt;
  /** the delivery service as the accepted snapshot captured it */
  service: DeliveryService;
  /** Standard Webhooks secrets (`whsec_…`) that sign now: the current one, and the previous during a rotation */
  signingSecrets: string[];
  /** where receipts go: the path relative to the hub, and the full URL */
  callbackPath: string;
  callbackUrl: string;
  signal?: AbortSignal;
};

export type CommDeliveryDriver = {
  readonly driverType: string;
  validateSettings(settings: Record<string, unknown>, channel: string | undefined): Violation[];
  /** never throws: every failure is an Observation */
  deliver(request: DriverRequest): Promise<Observation>;
};
