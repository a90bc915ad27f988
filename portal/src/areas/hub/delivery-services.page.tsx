import { Page } from '../../shell/page.tsx';

// placeholder until the page is built (replaced by its author; never shipped)
export function DeliveryServicesPage() {
  return <Page title="DeliveryServices" lead="Not built yet." />;
}
