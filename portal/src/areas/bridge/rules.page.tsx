import { Page } from '../../shell/page.tsx';
import { RulesTable } from './rules-table.tsx';
import './bridge.css';

/** Every rule of the tenant, on any bus (a new rule starts from its bus's page). */
export function RulesPage() {
  return (
    <Page title="Rules" lead="Rules match the events of a bus with a pattern and send them to up to five targets.">
      <RulesTable caption="Rules" captionHidden />
    </Page>
  );
}
