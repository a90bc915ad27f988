import { Link } from '@tanstack/react-router';
import type { Column } from '../../ui/paged-table.tsx';
import type { AuditRecord } from './audit-api.ts';

/** The results' columns: enough to tell records apart; the record's page shows every field. */
export const RECORD_COLUMNS: ReadonlyArray<Column<AuditRecord>> = [
  {
    key: 'sequence',
    header: 'Seq.',
    rowHeader: true,
    cell: (r) => (
      <Link to="/audit/records/$id" params={{ id: r.id ?? '' }} aria-label={`Record ${r.sequence}`}>
        {r.sequence}
      </Link>
    ),
  },
  { key: 'time', header: 'Time (UTC)', cell: (r) => <time dateTime={r.time}>{r.time?.replace('T', ' ')}</time> },
  {
    key: 'level',
    header: 'Level',
    cell: (r) => <span className={`audit-level audit-level-${r.warning_type}`}>{r.warning_type}</span>,
  },
  { key: 'business_code', header: 'Business code', cell: (r) => r.business_code },
  { key: 'client_ip', header: 'Client IP', cell: (r) => r.client_ip },
  { key: 'tags', header: 'Tags', cell: (r) => (r.tags ?? []).join(', ') },
  { key: 'trace', header: 'Trace ID', className: 'audit-col-wide', cell: (r) => r.trace_id },
];

export const recordKey = (r: AuditRecord): string => r.id ?? String(r.sequence);
