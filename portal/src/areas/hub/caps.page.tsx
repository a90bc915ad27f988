import { Page } from '../../shell/page.tsx';

// placeholder until the page is built (replaced by its author; never shipped)
export function CapsPage() {
  return <Page title="Caps" lead="Not built yet." />;
}
