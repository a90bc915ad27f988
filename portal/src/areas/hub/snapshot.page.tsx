import { Page } from '../../shell/page.tsx';

// placeholder until the page is built (replaced by its author; never shipped)
export function SnapshotPage() {
  return <Page title="Snapshot" lead="Not built yet." />;
}
