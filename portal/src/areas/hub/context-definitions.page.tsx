import { Page } from '../../shell/page.tsx';

// placeholder until the page is built (replaced by its author; never shipped)
export function ContextDefinitionsPage() {
  return <Page title="ContextDefinitions" lead="Not built yet." />;
}
