import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ADMIN } from './bridge-api.ts';
import { draftOfRule, newRule } from './rule-draft.ts';
import { RuleEditor } from './rule-editor.tsx';
import './bridge.css';

/** A new rule on a bus (`/bridge/buses/$bus/rules/new`). */
export function NewRulePage() {
  const { bus } = useParams({ strict: false }) as { bus: string };
  return (
    <Page
      title="New rule"
      lead={
        <>
          On bus{' '}
          <Link to="/bridge/buses/$bus" params={{ bus }}>
            {bus}
          </Link>
          : events matching the pattern go to the targets.
        </>
      }
    >
      <RuleEditor initial={newRule(bus)} mode="create" />
    </Page>
  );
}

/** One rule, to change, enable or disable, or delete. */
export function RulePage() {
  const { ruleId } = useParams({ strict: false }) as { ruleId: string };
  const query = useQuery({
    queryKey: ['bridge', 'rule', ruleId],
    queryFn: ({ signal }) => call(api.bridge.GET(`${ADMIN}/rules/{id}`, { params: { path: { id: ruleId } }, signal })),
  });
  const rule = query.data;
  return (
    <Page
      title={rule?.name ?? `Rule ${ruleId}`}
      lead={
        rule === undefined ? (
          '\u00a0'
        ) : (
          <>
            Rule <code>{rule.id}</code> on bus{' '}
            <Link to="/bridge/buses/$bus" params={{ bus: rule.bus ?? '' }}>
              {rule.bus}
            </Link>
            {rule.enabled ? '' : ' (disabled)'}
          </>
        )
      }
    >
      {query.error !== null && <ApiErrorView error={query.error} onRetry={() => void query.refetch()} />}
      {query.isPending && <p className="check-muted">Loading the rule…</p>}
      {rule !== undefined && <RuleEditor key={`${rule.id}:${rule.revision}`} initial={draftOfRule(rule)} mode="edit" />}
    </Page>
  );
}
