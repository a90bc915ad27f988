import { Page } from '../../shell/page.tsx';

// placeholder until the page is built (replaced by its author; never shipped)
export function MessagePage() {
  return <Page title="Message" lead="Not built yet." />;
}
