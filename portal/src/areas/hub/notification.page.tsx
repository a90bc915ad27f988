import { Page } from '../../shell/page.tsx';

// placeholder until the page is built (replaced by its author; never shipped)
export function NotificationPage() {
  return <Page title="Notification" lead="Not built yet." />;
}
