import { Page } from '../../shell/page.tsx';

// placeholder until the page is built (replaced by its author; never shipped)
export function ChannelsPage() {
  return <Page title="Channels" lead="Not built yet." />;
}
