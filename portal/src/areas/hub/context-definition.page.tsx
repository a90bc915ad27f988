import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { type FormEvent, useId, useState } from 'react';
import { api, call } from '../../api/client.ts';
import { isApiError } from '../../api/errors.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { JsonEditor } from '../../ui/json-editor.tsx';
import { useStatus } from '../../ui/status.tsx';
import { bodyOf, type ContextDraft, draftOf, type PlacedErrors, placeErrors, sampleOf } from './context-draft.ts';
import { ContextPreviewPanel, useContextPreview } from './context-preview.tsx';
import { MapRowsEditor, SensitiveRowsEditor } from './context-rows.tsx';
import { type ContextDefinition, typed } from './hub-defs-api.ts';
import './hub-defs.css';

/**
 * One context definition (`new`: a new one): its aliases, variables, sensitive fields and sample payload,
 * with the extraction and masking preview of the sample refreshed as either is edited. A refusal keeps
 * the input and marks the fields it names; delete asks first.
 */
export function ContextDefinitionPage() {
  const { id } = useParams({ strict: false }) as { id: string };
  const isNew = id === 'new';
  const query = useQuery({
    queryKey: ['hub', 'context', id],
    enabled: !isNew,
    queryFn: ({ signal }) =>
      typed<ContextDefinition>(
        call(api.hub.GET('/comm/v1/context-definitions/{id}', { params: { path: { id } }, signal })),
      ),
  });
  const title = isNew ? 'New context definition' : `Context definition ${id}`;
  if (!isNew && query.data === undefined)
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
          Aliases name parts of a send&apos;s payload; variables read them for templates and conditions.{' '}
          <Link to="/hub/context-definitions">All context definitions</Link>
        </>
      }
      actions={!isNew && <DeleteContext id={id} />}
    >
      <ContextForm key={id} initial={query.data ?? null} />
    </Page>
  );
}

function ContextForm({ initial }: { initial: ContextDefinition | null }) {
  const isNew = initial === null;
  const id = useId();
  const [draft, setDraft] = useState<ContextDraft>(() => draftOf(initial));
  const [saveError, setSaveError] = useState<unknown>(null);
  const [saveErrors, setSaveErrors] = useState<PlacedErrors>({});
  const [saveOther, setSaveOther] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const sample = sampleOf(draft.sample);
  const preview = useContextPreview(draft, sample.payload);
  const errors = { ...preview.errors, ...saveErrors };
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notify = useStatus();

  const edit = (change: Partial<ContextDraft>) => {
    setDraft((d) => ({ ...d, ...change }));
    setSaveErrors({});
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    setSaving(true);
    setSaveError(null);
    setSaveOther([]);
    try {
      if (sample.payload === null)
        throw Object.assign(new Error('the sample payload must be a JSON object'), { field: 'SamplePayload' });
      const body = bodyOf(draft, sample.payload);
      const saved = isNew
        ? await typed<ContextDefinition>(
            call(
              api.hub.POST('/comm/v1/context-definitions', {
                body: { ContextDefinitionId: draft.id.trim(), ...body },
              }),
            ),
          )
        : await typed<ContextDefinition>(
            call(
              api.hub.PUT('/comm/v1/context-definitions/{id}', {
                params: { path: { id: initial.ContextDefinitionId } },
                body,
              }),
            ),
          );
      notify({ kind: 'success', text: `Context definition ${saved.ContextDefinitionId} saved` });
      queryClient.setQueryData(['hub', 'context', saved.ContextDefinitionId], saved);
      setTimeout(() => void queryClient.invalidateQueries({ queryKey: ['hub', 'contexts'] }), 1500);
      if (isNew) await navigate({ to: '/hub/context-definitions/$id', params: { id: saved.ContextDefinitionId } });
    } catch (err) {
      setSaveError(err);
      const placed = isApiError(err)
        ? placeErrors(err.details, draft)
        : { placed: { SamplePayload: err instanceof Error ? err.message : String(err) }, other: [] };
      setSaveErrors(placed.placed);
      setSaveOther(placed.other);
      const first = Object.keys(placed.placed)[0];
      setTimeout(() => {
        const target = first === undefined ? null : document.querySelector<HTMLElement>(`[data-place="${first}"]`);
        (target ?? document.getElementById(`${id}-summary`))?.focus();
      }, 0);
    } finally {
      setSaving(false);
    }
  };

  const fieldError = (name: string) =>
    errors[name] === undefined ? null : (
      <p id={`${id}-${name}-error`} className="field-error">
        {errors[name]}
      </p>
    );
  return (
    <form className="hd-form" onSubmit={save} noValidate>
      <div className="hd-field-row">
        <div className={errors.ContextDefinitionId !== undefined ? 'field field-invalid' : 'field'}>
          <label className="field-label" htmlFor={`${id}-cid`}>
            Id{isNew && <span aria-hidden="true"> *</span>}
          </label>
          <input
            id={`${id}-cid`}
            data-place="ContextDefinitionId"
            className="input hd-mono"
            value={draft.id}
            readOnly={!isNew}
            required={isNew}
            aria-invalid={errors.ContextDefinitionId !== undefined ? true : undefined}
            aria-describedby={errors.ContextDefinitionId !== undefined ? `${id}-ContextDefinitionId-error` : undefined}
            onChange={(e) => edit({ id: e.target.value })}
          />
          {fieldError('ContextDefinitionId')}
        </div>
        <div className={errors.Name !== undefined ? 'field field-invalid' : 'field'}>
          <label className="field-label" htmlFor={`${id}-name`}>
            Name
          </label>
          <input
            id={`${id}-name`}
            className="input"
            value={draft.name}
            aria-invalid={errors.Name !== undefined ? true : undefined}
            onChange={(e) => edit({ name: e.target.value })}
          />
          {fieldError('Name')}
        </div>
      </div>
      <MapRowsEditor
        kind="Contexts"
        legend="Aliases"
        hint="An alias names a part of the payload by a JSONPath ($.customer, $.parties[*])."
        nameLabel="Alias"
        pathLabel="JSONPath of alias"
        pathPlaceholder="$.customer"
        rows={draft.contexts}
        errors={errors}
        onChange={(contexts) => edit({ contexts })}
      />
      <MapRowsEditor
        kind="Variables"
        legend="Variables"
        hint="A variable reads Context.<alias>[.path] or Payload.<path>; templates use ${Name}, conditions Name."
        nameLabel="Variable"
        pathLabel="Source of variable"
        pathPlaceholder="Context.customer.email"
        rows={draft.variables}
        errors={errors}
        onChange={(variables) => edit({ variables })}
      />
      <SensitiveRowsEditor
        rows={draft.sensitive}
        errors={errors}
        masking={preview.masking}
        onChange={(sensitive) => edit({ sensitive })}
      />
      <div className={errors.SamplePayload !== undefined || !sample.text.ok ? 'field field-invalid' : 'field'}>
        <label className="field-label" htmlFor={`${id}-sample`}>
          Sample payload
        </label>
        <p id={`${id}-sample-hint`} className="field-hint">
          A business payload as a send would carry it (a JSON object), kept with the definition for previews.
        </p>
        <JsonEditor
          id={`${id}-sample`}
          label="Sample payload"
          value={draft.sample}
          onChange={(sampleText) => edit({ sample: sampleText })}
          marks={sample.text.ok ? [] : [{ ...sample.text.span, message: sample.text.message }]}
          invalid={!sample.text.ok || errors.SamplePayload !== undefined}
          describedBy={`${id}-sample-hint${errors.SamplePayload !== undefined ? ` ${id}-SamplePayload-error` : ''}`}
        />
        {!sample.text.ok && <p className="field-error">Not JSON: {sample.text.message}</p>}
        {fieldError('SamplePayload')}
      </div>
      <ContextPreviewPanel state={preview.state} />
      {saveError !== null && (
        <div id={`${id}-summary`} tabIndex={-1} className="form-summary">
          <ApiErrorView error={saveError} title="Not saved" />
          {saveOther.length > 0 && (
            <ul className="form-problems">
              {saveOther.map((o) => (
                <li key={o}>{o}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? 'Saving…' : isNew ? 'Create context definition' : 'Save changes'}
        </button>
      </div>
    </form>
  );
}

function DeleteContext({ id }: { id: string }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const notify = useStatus();
  const remove = async () => {
    setBusy(true);
    try {
      await call(api.hub.DELETE('/comm/v1/context-definitions/{id}', { params: { path: { id } } }));
      notify({ kind: 'success', text: `Context definition ${id} deleted` });
      setTimeout(() => void queryClient.invalidateQueries({ queryKey: ['hub', 'contexts'] }), 1500);
      await navigate({ to: '/hub/context-definitions' });
    } catch (e) {
      setError(e);
      setAsking(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className="button button-danger" onClick={() => setAsking(true)}>
        Delete
      </button>
      {error !== null && <ApiErrorView error={error} title="Not deleted" />}
      {asking && (
        <ConfirmDialog
          title={`Delete context definition ${id}?`}
          confirmLabel="Delete"
          danger
          busy={busy}
          onConfirm={() => void remove()}
          onCancel={() => setAsking(false)}
        >
          Definition versions that name it then send without its variables and masking; sends accepted before keep their
          snapshot.
        </ConfirmDialog>
      )}
    </>
  );
}
