import type { DeliveryErrorClass } from '../../domain/bridge/delivery-error-class.ts';
import type { BlockingDelivery } from '../../domain/bridge/rule-target-state.decider.ts';
import type { Doc } from '../../infra/core/read-store.port.ts';

/** The documents of `bridge.deliveries` (deliveries.projection.ts says what each collection holds). */
export type DeliveryDueDoc = Doc & {
  /** the delivery id */
  id: string;
  stream: string;
  tenant: string;
  /** ruleTargetKey */
  ruleTarget: string;
  dueAt: string;
  leaseUntil: string;
  leaseOwner?: string;
  leases?: number;
  held: boolean;
  /** when the delivery's next step is due, held or not */
  nextAt: string;
  scheduledAt: string;
  /** ErrorTolerance NONE: the worker runs the rule target's deliveries one at a time, in due order */
  ordered: boolean;
  /** log position of the scheduling (or redrive): breaks ties between equal due times in log order */
  seq: string;
  /** an item written from the delivery's EventRouted (its scheduling not seen yet): where it was routed */
  publishedStream?: string;
};

export type DeliveryDocStatus =
  | 'scheduled'
  | 'in-flight'
  | 'retrying'
  | 'failed'
  | 'succeeded'
  | 'dead-lettered'
  | 'discarded'
  | 'blocked'
  | 'purged';

export type DeliveryDoc = Doc & {
  id: string;
  stream: string;
  tenant: string;
  eventKey: string;
  ruleTenant: string;
  ruleId: string;
  targetId: number;
  typeId: number;
  ruleTarget: string;
  /** ErrorTolerance NONE */
  ordered: boolean;
  status: DeliveryDocStatus;
  attempts: number;
  lastError?: string;
  httpStatus?: number;
  nextAttemptAt?: string;
  scheduledAt: string;
  updatedAt: string;
};

export type DeadLetterDoc = Doc & {
  id: string;
  stream: string;
  tenant: string;
  eventKey: string;
  ruleTenant: string;
  ruleId: string;
  targetId: number;
  ruleTarget: string;
  /** the target type (TypeId 1-5) */
  typeId: number;
  /** what kind of failure the last error was */
  errorClass: DeliveryErrorClass;
  /** the producer's event: source, type and id */
  source: string;
  type: string;
  sourceEventId: string;
  deadLetteredAt: string;
  lastError: string;
  httpStatus?: number;
  attempts: number;
};

export type RuleTargetDoc = Doc & {
  id: string;
  ruleTenant: string;
  ruleId: string;
  targetId: number;
  blocked: boolean;
  blockedAt?: string;
  blockedBy: BlockingDelivery[];
  resumedAt?: string;
  resumedBy?: string;
};
