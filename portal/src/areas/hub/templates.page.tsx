import { Page } from '../../shell/page.tsx';

// placeholder until the page is built (replaced by its author; never shipped)
export function TemplatesPage() {
  return <Page title="Templates" lead="Not built yet." />;
}
