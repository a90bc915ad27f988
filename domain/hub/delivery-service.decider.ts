import type { Decider } from '../core/decider.ts';
import type { SealedSecret } from '../core/sealed-secret.ts';
import { streamName } from '../core/stream-name.ts';
import type { DeliveryService } from './config.model.ts';
import { checkDeliveryService } from './config.validate.ts';
import { hubError } from './hub.errors.ts';
import { canonicalJson } from './resource.decider.ts';

/**
 * A delivery service (spec "Delivery service": DriverType, optional Channel, nonsecret Settings,
 * ReceiptMode, ReceiptTimeoutSeconds), one stream per service. Its webhook signing secret (Standard
 * Webhooks, `whsec_…`) is a credential: generated when the service is created, kept sealed (AES-256-GCM,
 * the command layer seals it) in its own event, never in the service's Settings, so configuration snapshots
 * (which copy the service) never hold it. A rotation keeps the previous secret signing too until
 * `PreviousUntil` (both signatures are sent during the overlap). After a change of the key-encryption
 * secret, `ResealSecret` issues the same secrets sealed again (a SigningSecretIssued with the same overlap).
 */
export const DELIVERY_SERVICE_CATEGORY = 'hubService';
export const deliveryServiceStream = (tenant: string, id: string) => streamName(DELIVERY_SERVICE_CATEGORY, tenant, id);

export type DeliveryServiceEvent =
  | { type: 'DeliveryServiceSaved'; data: { Resource: DeliveryService; Created: boolean; At: string } }
  | { type: 'DeliveryServiceDeleted'; data: { Id: string; At: string } }
  | {
      type: 'SigningSecretIssued';
      data: {
        ServiceId: string;
        Sealed: SealedSecret;
        PreviousSealed?: SealedSecret;
        PreviousUntil?: string;
        At: string;
      };
    };

export type DeliveryServiceCommand =
  | { type: 'Create'; resource: DeliveryService; sealedSecret: SealedSecret; now: string }
  | { type: 'Update'; resource: DeliveryService; now: string }
  | { type: 'Delete'; now: string }
  | { type: 'RotateSecret'; sealedSecret: SealedSecret; overlapUntil: string; now: string }
  /** the secrets in force, sealed again by the caller (the same clear values): the overlap is kept as it is */
  | { type: 'ResealSecret'; sealedSecret: SealedSecret; previousSealed?: SealedSecret; now: string };

export type SigningSecrets = { current: SealedSecret; previous?: SealedSecret; previousUntil?: string };

export type DeliveryServiceState =
  | { status: 'none' }
  | {
      status: 'live' | 'deleted';
      resource: DeliveryService;
      createdAt: string;
      updatedAt: string;
      signing?: SigningSecrets;
    };

export const DELIVERY_SERVICE_EVENT_TYPES = [
  'DeliveryServiceSaved',
  'DeliveryServiceDeleted',
  'SigningSecretIssued',
] as const;

function validate(resource: DeliveryService) {
  const violations = checkDeliveryService(resource);
  if (violations.length > 0) {
    throw hubError(
      'DELIVERY_SERVICE.INVALID',
      `invalid delivery service: ${violations.map((v) => `${v.field} ${v.message}`).join('; ')}`,
      violations,
    );
  }
}

/** the sealed secrets that sign at `now`: the current one, and the previous one during its overlap */
export function signingSecretsAt(state: DeliveryServiceState, now: string): SealedSecret[] {
  if (state.status !== 'live' || state.signing === undefined) return [];
  const s = state.signing;
  return s.previous !== undefined && s.previousUntil !== undefined && now < s.previousUntil
    ? [s.current, s.previous]
    : [s.current];
}

export const deliveryServiceDecider: Decider<DeliveryServiceCommand, DeliveryServiceEvent, DeliveryServiceState> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'DeliveryServiceSaved': {
        const d = event.data;
        const signing = state.status === 'none' ? undefined : state.signing;
        return {
          status: 'live',
          resource: d.Resource,
          createdAt: state.status === 'live' ? state.createdAt : d.At,
          updatedAt: d.At,
          ...(signing && { signing }),
        };
      }
      case 'DeliveryServiceDeleted':
        return state.status === 'none' ? state : { ...state, status: 'deleted', updatedAt: event.data.At };
      case 'SigningSecretIssued': {
        if (state.status === 'none') return state;
        const d = event.data;
        return {
          ...state,
          signing: {
            current: d.Sealed,
            ...(d.PreviousSealed !== undefined && { previous: d.PreviousSealed }),
            ...(d.PreviousUntil !== undefined && { previousUntil: d.PreviousUntil }),
          },
        };
      }
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'Create':
        validate(command.resource);
        if (state.status === 'live')
          throw hubError('DELIVERY_SERVICE.EXISTS', `delivery service ${command.resource.ServiceId} exists already`, {
            id: command.resource.ServiceId,
          });
        return [
          { type: 'DeliveryServiceSaved', data: { Resource: command.resource, Created: true, At: command.now } },
          {
            type: 'SigningSecretIssued',
            data: { ServiceId: command.resource.ServiceId, Sealed: command.sealedSecret, At: command.now },
          },
        ];
      case 'Update':
        if (state.status !== 'live')
          throw hubError('DELIVERY_SERVICE.NOT_FOUND', 'no such delivery service', { id: command.resource.ServiceId });
        validate(command.resource);
        if (canonicalJson(state.resource) === canonicalJson(command.resource)) return [];
        return [
          { type: 'DeliveryServiceSaved', data: { Resource: command.resource, Created: false, At: command.now } },
        ];
      case 'Delete':
        if (state.status !== 'live') throw hubError('DELIVERY_SERVICE.NOT_FOUND', 'no such delivery service');
        return [{ type: 'DeliveryServiceDeleted', data: { Id: state.resource.ServiceId, At: command.now } }];
      case 'RotateSecret': {
        if (state.status !== 'live') throw hubError('DELIVERY_SERVICE.NOT_FOUND', 'no such delivery service');
        const previous = state.signing?.current;
        return [
          {
            type: 'SigningSecretIssued',
            data: {
              ServiceId: state.resource.ServiceId,
              Sealed: command.sealedSecret,
              ...(previous !== undefined &&
                command.overlapUntil > command.now && {
                  PreviousSealed: previous,
                  PreviousUntil: command.overlapUntil,
                }),
              At: command.now,
            },
          },
        ];
      }
      case 'ResealSecret': {
        if (state.status !== 'live' || state.signing === undefined)
          throw hubError('DELIVERY_SERVICE.NOT_FOUND', 'no such delivery service');
        const until = state.signing.previousUntil;
        return [
          {
            type: 'SigningSecretIssued',
            data: {
              ServiceId: state.resource.ServiceId,
              Sealed: command.sealedSecret,
              ...(command.previousSealed !== undefined &&
                until !== undefined && { PreviousSealed: command.previousSealed, PreviousUntil: until }),
              At: command.now,
            },
          },
        ];
      }
    }
  },
};
