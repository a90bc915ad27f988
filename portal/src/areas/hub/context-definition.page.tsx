import { Page } from '../../shell/page.tsx';

// placeholder until the page is built (replaced by its author; never shipped)
export function ContextDefinitionPage() {
  return <Page title="ContextDefinition" lead="Not built yet." />;
}
