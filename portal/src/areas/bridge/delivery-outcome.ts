/**
 * Where a traced delivery stands, from the steps the trace records for it (projections/bridge/trace.projection.ts),
 * apart from React (portal/spec/bridge-operations.logic.spec.ts).
 */
/** One step of a delivery as the trace records it (projections/bridge/trace.projection.ts). */
export type DeliveryStep = {
  ruleId: string;
  targetId: number;
  attemptId: string;
  at: string;
  status:
    | 'scheduled'
    | 'started'
    | 'succeeded'
    | 'failed'
    | 'dead-lettered'
    | 'discarded'
    | 'blocked'
    | 'redriven'
    | 'purged';
  attempt: number;
  error?: string;
  httpStatus?: number;
  nextAttemptAt?: string | null;
  ruleTenant?: string;
  deliveryId?: string;
  typeId?: number;
  uncertain?: true;
  reason?: string;
};

export type Outcome =
  | 'delivered'
  | 'failed'
  | 'retrying'
  | 'pending'
  | 'dead-lettered'
  | 'discarded'
  | 'blocked'
  | 'purged';

/** where a delivery stands after its last step */
export function outcomeOf(last: DeliveryStep): Outcome {
  switch (last.status) {
    case 'succeeded':
      return 'delivered';
    case 'failed':
      return last.nextAttemptAt === null || last.attemptId === '' ? 'failed' : 'retrying';
    case 'scheduled':
    case 'started':
    case 'redriven':
      return 'pending';
    case 'dead-lettered':
      return 'dead-lettered';
    case 'discarded':
      return 'discarded';
    case 'blocked':
      return 'blocked';
    case 'purged':
      return 'purged';
    default: {
      const never: never = last.status;
      return never;
    }
  }
}

/** the steps per rule target, in log order, keyed `ruleId#targetId` */
export function byTarget(steps: readonly DeliveryStep[]): Map<string, DeliveryStep[]> {
  const groups = new Map<string, DeliveryStep[]>();
  for (const s of steps) {
    const key = `${s.ruleId}#${s.targetId}`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  return groups;
}
