import { Page } from '../../shell/page.tsx';

// placeholder until the page is built (replaced by its author; never shipped)
export function QuietHoursPage() {
  return <Page title="QuietHours" lead="Not built yet." />;
}
