import { Page } from '../../shell/page.tsx';

// placeholder until the page is built (replaced by its author; never shipped)
export function PreferencesPage() {
  return <Page title="Preferences" lead="Not built yet." />;
}
