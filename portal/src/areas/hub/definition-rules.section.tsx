import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { ScrollRegion } from '../../ui/scroll-region.tsx';
import { useStatus } from '../../ui/status.tsx';
import { type Definition, type DeliveryRule, rulesOf, updateCached } from './hub-defs-api.ts';
import { RuleForm } from './rule-form.tsx';

/**
 * A version's delivery rules (role, then order), each editable and deletable (with a confirmation), and
 * a new one; the open form previews its rule unsaved. The list comes from a read model that may lag a
 * write: a saved rule is put in the cached list at once.
 */
export const rulesKey = (definitionId: string) => ['hub', 'rules', definitionId] as const;

export function RulesSection(props: { definition: Definition; sample: Record<string, unknown> | undefined }) {
  const { definition } = props;
  const key = rulesKey(definition.DefinitionId);
  const query = useQuery({ queryKey: key, queryFn: ({ signal }) => rulesOf(definition.DefinitionId, signal) });
  const [editing, setEditing] = useState<DeliveryRule | 'new' | null>(null);
  const [deleting, setDeleting] = useState<DeliveryRule | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const queryClient = useQueryClient();
  const notify = useStatus();
  const rules = [...(query.data ?? [])].sort((a, b) => a.Role.localeCompare(b.Role) || a.OrderNo - b.OrderNo);

  const saved = (r: DeliveryRule) => {
    notify({ kind: 'success', text: `Rule ${r.RuleId} saved` });
    updateCached<DeliveryRule>(queryClient, key, (items) =>
      items.some((x) => x.RuleId === r.RuleId) ? items.map((x) => (x.RuleId === r.RuleId ? r : x)) : [...items, r],
    );
    setEditing(null);
  };
  const remove = async (r: DeliveryRule) => {
    setBusy(true);
    try {
      await call(api.hub.DELETE('/comm/v1/delivery-rules/{ruleId}', { params: { path: { ruleId: r.RuleId } } }));
      notify({ kind: 'success', text: `Rule ${r.RuleId} deleted` });
      updateCached<DeliveryRule>(queryClient, key, (items) => items.filter((x) => x.RuleId !== r.RuleId));
      setError(null);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
      setDeleting(null);
    }
  };

  return (
    <section className="hd-section" aria-labelledby="rules-title">
      <div className="hd-section-head">
        <h2 id="rules-title">Delivery rules</h2>
        {editing === null && (
          <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
            New rule
          </button>
        )}
      </div>
      {editing !== null && (
        <RuleForm
          key={editing === 'new' ? 'new' : editing.RuleId}
          definition={definition}
          rule={editing === 'new' ? null : editing}
          sample={props.sample}
          onSaved={saved}
          onCancel={() => setEditing(null)}
        />
      )}
      {error !== null && <ApiErrorView error={error} title="Not deleted" />}
      {query.isError && (
        <ApiErrorView error={query.error} title="The rules could not be loaded" onRetry={() => void query.refetch()} />
      )}
      <ScrollRegion label={`Rules of ${definition.DefinitionId}`}>
        <table className="table" aria-busy={query.isFetching ? true : undefined}>
          <caption className="visually-hidden">Rules of {definition.DefinitionId}</caption>
          <thead>
            <tr>
              <th scope="col">Rule</th>
              <th scope="col">Role</th>
              <th scope="col">Channel</th>
              <th scope="col">Order</th>
              <th scope="col">Recipient</th>
              <th scope="col">Condition</th>
              <th scope="col">Template</th>
              <th scope="col">Service</th>
              <th scope="col">Enabled</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {query.isPending && (
              <tr>
                <td colSpan={10} className="table-empty">
                  Loading the rules…
                </td>
              </tr>
            )}
            {query.data !== undefined && rules.length === 0 && (
              <tr>
                <td colSpan={10} className="table-empty">
                  No rules yet: a version without rules sends nothing.
                </td>
              </tr>
            )}
            {rules.map((r) => {
              const ruleKey = r.RuleId.slice(definition.DefinitionId.length + 1);
              return (
                <tr key={r.RuleId}>
                  <th scope="row">
                    <code className="hd-nowrap">{ruleKey}</code>
                  </th>
                  <td>{r.Role}</td>
                  <td>{r.Channel}</td>
                  <td>{r.OrderNo}</td>
                  <td>
                    {r.RecipientSource}
                    {r.AddressVariable !== undefined && ` · ${r.AddressVariable}`}
                  </td>
                  <td>{r.Condition === undefined ? 'always' : <code>{r.Condition}</code>}</td>
                  <td>{r.TemplateCode}</td>
                  <td>{r.ServiceId}</td>
                  <td>{r.Enabled ? 'yes' : 'no'}</td>
                  <td>
                    <div className="hd-actions-cell">
                      <button
                        type="button"
                        className="button button-small"
                        aria-label={`Edit rule ${ruleKey}`}
                        onClick={() => setEditing(r)}
                      >
                        Edit
                      </button>
                      <button
                        type="button"
                        className="button button-small button-danger"
                        aria-label={`Delete rule ${ruleKey}`}
                        onClick={() => setDeleting(r)}
                      >
                        Delete
                      </button>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </ScrollRegion>
      {deleting !== null && (
        <ConfirmDialog
          title={`Delete rule ${deleting.RuleId}?`}
          confirmLabel="Delete rule"
          danger
          busy={busy}
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        >
          New sends of {definition.DefinitionId} no longer make its message; accepted sends keep their snapshot.
        </ConfirmDialog>
      )}
    </section>
  );
}
