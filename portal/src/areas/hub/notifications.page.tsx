import { Page } from '../../shell/page.tsx';

// placeholder until the page is built (replaced by its author; never shipped)
export function NotificationsPage() {
  return <Page title="Notifications" lead="Not built yet." />;
}
