import { Page } from '../../shell/page.tsx';

// placeholder until the page is built (replaced by its author; never shipped)
export function TemplatePage() {
  return <Page title="Template" lead="Not built yet." />;
}
