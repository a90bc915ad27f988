import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';

const BUSES = '/api/platform/platform-pub/eventBridge/admin/v1/buses';

/** The tenant's custom buses and the platform's (the API answers the whole list: no paging). */
export function BusesPage() {
  return (
    <Page title="Event buses" lead="Events are published to a bus; its rules route them to targets.">
      <PagedTable
        caption="Event buses"
        captionHidden
        queryKey={['bridge', 'buses']}
        paging="none"
        fetchPage={async (_request, signal) => ({ items: (await call(api.bridge.GET(BUSES, { signal }))).items ?? [] })}
        rowKey={(b) => `${b.tenant ?? ''}/${b.name ?? ''}`}
        columns={[
          { key: 'name', header: 'Name', rowHeader: true, cell: (b) => b.name },
          { key: 'kind', header: 'Kind', cell: (b) => b.kind },
          { key: 'tenant', header: 'Owner', cell: (b) => b.tenant },
          { key: 'description', header: 'Description', cell: (b) => b.description ?? '' },
        ]}
        empty="No event buses yet."
      />
    </Page>
  );
}
