import type { ReactNode } from 'react';
import './operations.css';

/**
 * What the bridge's operations pages (trace, dead letters, connections, API destinations, schemas) share:
 * the admin API's base, times shown as UTC with milliseconds (a delivery's stages are often milliseconds
 * apart), a trace's delivery outcome per target, and small presentational pieces.
 */
export const ADMIN = '/api/platform/platform-pub/eventBridge/admin/v1';

/** `2026-12-02 05:18:56.123 UTC`; '' for nothing */
export const utc = (iso: string | null | undefined): string =>
  iso === null || iso === undefined || iso === ''
    ? ''
    : `${new Date(iso).toISOString().replace('T', ' ').slice(0, 23)} UTC`;

export function Time({ iso }: { iso: string | null | undefined }) {
  if (iso === null || iso === undefined || iso === '') return null;
  return <time dateTime={iso}>{utc(iso)}</time>;
}

/** a `datetime-local` input's value (the browser's local time) as an ISO instant; undefined when empty */
export const instantOfLocal = (value: string): string | undefined => {
  if (value === '') return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
};

/** an ISO instant as a `datetime-local` value in the browser's local time (seconds kept) */
export const localOfInstant = (iso: string): string => {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
};

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

const TONE: Record<Outcome, 'ok' | 'bad' | 'wait'> = {
  delivered: 'ok',
  failed: 'bad',
  retrying: 'wait',
  pending: 'wait',
  'dead-lettered': 'bad',
  discarded: 'bad',
  blocked: 'bad',
  purged: 'bad',
};

export function OutcomeBadge({ outcome, children }: { outcome: Outcome; children?: ReactNode }) {
  return <span className={`badge badge-${TONE[outcome]}`}>{children ?? outcome}</span>;
}

/** a term and its value in a definition list; nothing when the value is empty */
export function Fact({ term, children }: { term: string; children: ReactNode }) {
  if (children === undefined || children === null || children === '') return null;
  return (
    <div className="fact">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** a scrolling block that takes the focus, so a keyboard can scroll it (axe: scrollable-region-focusable) */
export function ScrollRegion({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a div region wraps a table or a block; a section would add a landmark each
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus
    <div className={className ?? 'table-scroll'} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/** JSON shown as it is, in a focusable scrolling block (long lines scroll, not the page) */
export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  return (
    <ScrollRegion label={label} className="json-block">
      <pre>{JSON.stringify(value, null, 2)}</pre>
    </ScrollRegion>
  );
}
