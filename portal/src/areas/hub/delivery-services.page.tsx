import { Link } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { at, type DeliveryService, hubPaging, SETUP_KEY } from './hub-setup-api.ts';
import './hub-setup.css';

/** where a REST_WEBHOOK service posts; other drivers' settings are not summarized */
const target = (s: DeliveryService) => (typeof s.Settings.Url === 'string' ? s.Settings.Url : '');

/** The tenant's delivery services: the drivers messages leave through, and where they post. */
export function DeliveryServicesPage() {
  return (
    <Page
      title="Delivery services"
      lead="The drivers messages leave through: a REST_WEBHOOK service posts each message, signed, to its receiver. Delivery rules name a service."
      actions={
        <Link to="/hub/delivery-services/new" className="button button-primary">
          Create delivery service
        </Link>
      }
    >
      <PagedTable<DeliveryService>
        caption="Delivery services"
        captionHidden
        queryKey={[...SETUP_KEY, 'services', 'list']}
        fetchPage={async ({ offset, limit }, signal) => {
          const page = (await call(
            api.hub.GET('/comm/v1/delivery-services', { params: { query: hubPaging(offset, limit) }, signal }),
          )) as unknown as { Items: DeliveryService[]; Total: number };
          return { items: page.Items, total: page.Total };
        }}
        rowKey={(s) => s.ServiceId}
        columns={[
          {
            key: 'id',
            header: 'Service',
            rowHeader: true,
            cell: (s) => (
              <Link to="/hub/delivery-services/$id" params={{ id: s.ServiceId }}>
                {s.ServiceId}
              </Link>
            ),
          },
          { key: 'name', header: 'Name', cell: (s) => s.Name ?? '' },
          { key: 'driver', header: 'Driver', cell: (s) => s.DriverType },
          { key: 'channel', header: 'Channel', cell: (s) => s.Channel ?? 'any' },
          { key: 'url', header: 'Receiver', cell: (s) => <span className="hs-url">{target(s)}</span> },
          { key: 'receipt', header: 'Receipts', cell: (s) => s.ReceiptMode },
          { key: 'updated', header: 'Updated', cell: (s) => at(s.UpdatedAt) },
        ]}
        empty="No delivery service yet: create one to give delivery rules somewhere to send."
      />
    </Page>
  );
}
