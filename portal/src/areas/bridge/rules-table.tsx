import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { api, call } from '../../api/client.ts';
import { PagedTable } from '../../ui/paged-table.tsx';
import { ADMIN } from './bridge-api.ts';
import { typeOf } from './target-types.ts';

/** The tenant's rules through the API's paging (limit, offset; the API does not sort), of one bus or all. */
export function RulesTable(props: { bus?: string; caption: string; toolbar?: ReactNode; captionHidden?: boolean }) {
  return (
    <PagedTable
      caption={props.caption}
      captionHidden={props.captionHidden}
      toolbar={props.toolbar}
      queryKey={['bridge', 'rules', { bus: props.bus ?? null }]}
      fetchPage={async ({ offset, limit }, signal) => {
        const page = await call(
          api.bridge.GET(`${ADMIN}/rules`, {
            params: { query: { offset, limit, ...(props.bus !== undefined && { bus: props.bus }) } },
            signal,
          }),
        );
        return { items: page.items ?? [], ...(page.total !== undefined && { total: page.total }) };
      }}
      rowKey={(r) => r.id ?? ''}
      columns={[
        {
          key: 'name',
          header: 'Rule',
          rowHeader: true,
          cell: (r) => (
            <Link to="/bridge/rules/$ruleId" params={{ ruleId: r.id ?? '' }}>
              {r.name}
            </Link>
          ),
        },
        { key: 'id', header: 'Id', cell: (r) => <code className="nowrap">{r.id}</code> },
        ...(props.bus === undefined ? [{ key: 'bus', header: 'Bus', cell: (r: { bus?: string }) => r.bus }] : []),
        {
          key: 'targets',
          header: 'Targets',
          cell: (r) => (r.targets ?? []).map((t) => typeOf(Number((t as { typeId?: number }).typeId)).label).join(', '),
        },
        { key: 'enabled', header: 'State', cell: (r) => (r.enabled ? 'Enabled' : 'Disabled') },
      ]}
      empty="No rules yet."
    />
  );
}
