import type { BridgeEvent, Target } from '../../domain/bridge/model.ts';
import type { Publisher } from '../../domain/bridge/published-event.decider.ts';

/**
 * Seams of the bridge's delivery, so each side can be built and tested on its own:
 * - the delivery engine (scheduling, attempts, retries, tolerance, dead letters, trace) calls a
 *   TargetAdapter per TypeId;
 * - the target adapters (mail, platform message queue, preset HTTP client, API destination, user message
 *   box) do one attempt each and answer an outcome; they never retry by themselves.
 * External calls go through ports (infra/core/http-client.port.ts, infra/core/mail.port.ts) so tests and
 * the composition root choose the real clients.
 */

/** The TypeId of each target type (the spec shows no numbering: ours). */
export const TARGET_TYPES = { mail: 1, messageQueue: 2, presetHttp: 3, apiDestination: 4, userMessageBox: 5 } as const;

/** A parameter after its Form was applied (CONSTANT, ENV_PARAM, JSONPATH, TEMPLATE, ORIGINAL, TENANT_PROFILE). */
export type ResolvedParams = Record<string, unknown>;

export type DeliveryRequest = {
  /** stable per (event, rule, target): receivers deduplicate with it (sent as the `X-Delivery-Id` header / Message-ID) */
  deliveryId: string;
  /** one per attempt */
  attemptId: string;
  attempt: number;
  /** the publishing tenant (whose event it is) */
  tenant: string;
  ruleTenant: string;
  ruleId: string;
  target: Target;
  event: BridgeEvent;
  /** the target's converted payload (EventRouted) */
  payload: unknown;
  params: ResolvedParams;
  /** the publishing caller's bearer token, for Bearer connections that forward it; never recorded */
  callerToken?: string;
  /**
   * who published the event (EventAccepted's `publisher`, from the access token): the user message box
   * delivers to `publisher.subject` when the target has no USER_ID parameter
   */
  publisher?: Publisher;
  /** aborts at the per-call timeout (default 5 s) */
  signal: AbortSignal;
};

export type DeliveryOutcome =
  | { ok: true; httpStatus?: number; detail?: string }
  | {
      ok: false;
      /** false: retrying cannot help (a 4xx other than 408/429, a bad parameter): straight to the tolerance rule */
      retryable: boolean;
      error: string;
      httpStatus?: number;
      /** the peer's Retry-After (a 429 or 503), in ms: the next attempt is not made before it */
      retryAfterMs?: number;
    };

export type TargetAdapter = {
  typeId: number;
  /** the adapter may forward the publisher's token (DeliveryRequest.callerToken): only then is it read */
  usesCallerToken?: boolean;
  deliver(request: DeliveryRequest): Promise<DeliveryOutcome>;
};
