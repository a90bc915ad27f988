import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { useStatus } from '../../ui/status.tsx';
import { DefinitionFacts } from './definition-facts.tsx';
import { DefinitionForm } from './definition-form.tsx';
import { RulesSection, rulesKey } from './definition-rules.section.tsx';
import { SnapshotsSection } from './definition-snapshots.section.tsx';
import { type ContextDefinition, type Definition, rulesOf, typed, updateCached } from './hub-defs-api.ts';
import './hub-defs.css';

/**
 * One definition version (`new`: a new version, of `?code=` when given): its window and policies, edited
 * in place; its delivery rules; its configuration snapshots. Deleting the version deletes its rules.
 */
export function DefinitionPage() {
  const { id } = useParams({ strict: false }) as { id: string };
  if (id === 'new') return <NewVersion />;
  return <Version key={id} id={id} />;
}

function NewVersion() {
  const code = (useSearch({ strict: false }) as { code?: string }).code ?? '';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const notify = useStatus();
  return (
    <Page
      title={code === '' ? 'New definition' : `New version of ${code}`}
      lead={
        <>
          A version is effective from its start until its end; enabled versions of a code never overlap.{' '}
          <Link to="/hub/definitions">All definitions</Link>
        </>
      }
    >
      <DefinitionForm
        definition={null}
        code={code}
        onSaved={async (d) => {
          notify({ kind: 'success', text: `Version ${d.DefinitionId} created` });
          queryClient.setQueryData(['hub', 'definition', d.DefinitionId], d);
          updateCached<Definition>(queryClient, ['hub', 'definitions'], (items) => [...items, d]);
          await navigate({ to: '/hub/definitions/$id', params: { id: d.DefinitionId } });
        }}
      />
    </Page>
  );
}

function Version({ id }: { id: string }) {
  const [editing, setEditing] = useState(false);
  const queryClient = useQueryClient();
  const notify = useStatus();
  const query = useQuery({
    queryKey: ['hub', 'definition', id],
    queryFn: ({ signal }) =>
      typed<Definition>(
        call(api.hub.GET('/comm/v1/definitions/{definitionId}', { params: { path: { definitionId: id } }, signal })),
      ),
  });
  const d = query.data;
  // the context's own sample starts the rule preview's sample
  const context = useQuery({
    queryKey: ['hub', 'context', d?.ContextDefinitionId ?? ''],
    enabled: d?.ContextDefinitionId !== undefined,
    queryFn: ({ signal }) =>
      typed<ContextDefinition>(
        call(
          api.hub.GET('/comm/v1/context-definitions/{id}', {
            params: { path: { id: d!.ContextDefinitionId! } },
            signal,
          }),
        ),
      ),
  });
  const title = d === undefined ? `Definition ${id}` : `${d.NotificationCode} v${d.Version}`;
  if (d === undefined)
    return (
      <Page title={title} lead={query.isError ? undefined : 'Loading…'}>
        {query.isError && <ApiErrorView error={query.error} onRetry={() => void query.refetch()} />}
      </Page>
    );
  return (
    <Page
      title={title}
      lead={
        <>
          {d.Description ?? 'A version of the notification code.'} <Link to="/hub/definitions">All definitions</Link>
        </>
      }
      actions={
        <div className="hd-actions-cell">
          {!editing && (
            <button type="button" className="button" onClick={() => setEditing(true)}>
              Edit version
            </button>
          )}
          <DeleteVersion definition={d} />
        </div>
      }
    >
      {editing ? (
        <section className="hd-panel" aria-labelledby="edit-title">
          <h2 id="edit-title" className="hd-panel-title">
            Edit {d.DefinitionId}
          </h2>
          <DefinitionForm
            definition={d}
            onSaved={(saved) => {
              notify({ kind: 'success', text: `Version ${saved.DefinitionId} saved` });
              queryClient.setQueryData(['hub', 'definition', id], saved);
              updateCached<Definition>(queryClient, ['hub', 'definitions'], (items) =>
                items.map((x) => (x.DefinitionId === saved.DefinitionId ? saved : x)),
              );
              setEditing(false);
            }}
            actions={
              <button type="button" className="button" onClick={() => setEditing(false)}>
                Cancel
              </button>
            }
          />
        </section>
      ) : (
        <DefinitionFacts d={d} />
      )}
      <RulesSection definition={d} sample={context.data?.SamplePayload} />
      <SnapshotsSection definitionId={d.DefinitionId} />
    </Page>
  );
}

function DeleteVersion({ definition: d }: { definition: Definition }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const notify = useStatus();
  const rules = useQuery({
    queryKey: rulesKey(d.DefinitionId),
    queryFn: ({ signal }) => rulesOf(d.DefinitionId, signal),
  }).data;
  const remove = async () => {
    setBusy(true);
    try {
      await call(
        api.hub.DELETE('/comm/v1/definitions/{definitionId}', { params: { path: { definitionId: d.DefinitionId } } }),
      );
      notify({ kind: 'success', text: `Version ${d.DefinitionId} and its rules deleted` });
      updateCached<Definition>(queryClient, ['hub', 'definitions'], (items) =>
        items.filter((x) => x.DefinitionId !== d.DefinitionId),
      );
      await navigate({ to: '/hub/definitions' });
    } catch (e) {
      setError(e);
      setAsking(false);
    } finally {
      setBusy(false);
    }
  };
  const count =
    rules === undefined ? 'its delivery rules' : `its ${rules.length} delivery rule${rules.length === 1 ? '' : 's'}`;
  return (
    <>
      <button type="button" className="button button-danger" onClick={() => setAsking(true)}>
        Delete version
      </button>
      {error !== null && <ApiErrorView error={error} title="Not deleted" />}
      {asking && (
        <ConfirmDialog
          title={`Delete ${d.DefinitionId}?`}
          confirmLabel="Delete version and rules"
          danger
          busy={busy}
          onConfirm={() => void remove()}
          onCancel={() => setAsking(false)}
        >
          Deleting the version deletes {count} with it. Sends already accepted keep their snapshot; new sends of{' '}
          {d.NotificationCode} select another enabled version effective then, or are refused.
        </ConfirmDialog>
      )}
    </>
  );
}
