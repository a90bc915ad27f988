import { Page } from '../../shell/page.tsx';

// placeholder until the page is built (replaced by its author; never shipped)
export function DefinitionPage() {
  return <Page title="Definition" lead="Not built yet." />;
}
