import { Page } from '../../shell/page.tsx';

// placeholder until the page is built (replaced by its author; never shipped)
export function DeliveryServicePage() {
  return <Page title="DeliveryService" lead="Not built yet." />;
}
