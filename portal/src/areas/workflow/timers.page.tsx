import { Link } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import './workflow.css';

/**
 * The tenant's pending timers, soonest first (`GET /timers`): boundary timers on waiting activities and
 * intermediate timer events, each with its due time (UTC, as the API answers), element and instance.
 */
export function TimersPage() {
  return (
    <Page
      title="Timers"
      lead="Pending timers, soonest first: when each is due, which element waits for it, and its instance (times in UTC)."
    >
      <PagedTable
        caption="Pending timers"
        captionHidden
        queryKey={['workflow', 'timers']}
        fetchPage={async ({ offset, limit }, signal) => {
          const page = await call(
            api.workflow.GET('/workflow/v1/timers', { params: { query: { offset, limit } }, signal }),
          );
          return { items: page.items ?? [], total: page.total ?? 0 };
        }}
        rowKey={(t) => t.id ?? ''}
        columns={[
          { key: 'due', header: 'Due (UTC)', rowHeader: true, className: 'wf-date', cell: (t) => t.dueDate },
          {
            key: 'element',
            header: 'Element',
            cell: (t) => `${t.elementId} (${t.boundary ? 'boundary timer' : 'timer event'})`,
          },
          { key: 'key', header: 'Definition', cell: (t) => t.processDefinitionKey ?? '' },
          { key: 'bk', header: 'Business key', cell: (t) => t.businessKey ?? '' },
          {
            key: 'instance',
            header: 'Instance',
            cell: (t) => (
              <Link to="/workflow/instances/$id" params={{ id: t.processInstanceId ?? '' }}>
                {t.processInstanceId}
              </Link>
            ),
          },
        ]}
        empty="No timer is pending."
      />
    </Page>
  );
}
