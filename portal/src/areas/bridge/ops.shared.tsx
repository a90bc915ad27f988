import type { ReactNode } from 'react';
import './operations.css';
import { ScrollRegion } from '../../ui/scroll-region.tsx';
import type { Outcome } from './delivery-outcome.ts';
import { utc } from './time-format.ts';

export { byTarget, type DeliveryStep, type Outcome, outcomeOf } from './delivery-outcome.ts';
export { instantOfLocal, utc } from './time-format.ts';

/**
 * What the bridge's operations pages (trace, dead letters, connections, API destinations, schemas) share:
 * the admin API's base, times shown as UTC with milliseconds (a delivery's stages are often milliseconds
 * apart), a trace's delivery outcome per target, and small presentational pieces.
 */
export const ADMIN = '/api/platform/platform-pub/eventBridge/admin/v1';

export function Time({ iso }: { iso: string | null | undefined }) {
  if (iso === null || iso === undefined || iso === '') return null;
  return <time dateTime={iso}>{utc(iso)}</time>;
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

/** JSON shown as it is, in a focusable scrolling block (long lines scroll, not the page) */
export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  return (
    <ScrollRegion label={label} className="json-block">
      <pre>{JSON.stringify(value, null, 2)}</pre>
    </ScrollRegion>
  );
}
