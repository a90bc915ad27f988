import { Page } from '../../shell/page.tsx';

// placeholder until the page is built (replaced by its author; never shipped)
export function DefinitionsPage() {
  return <Page title="Definitions" lead="Not built yet." />;
}
