import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { useStatus } from '../../ui/status.tsx';
import { at, SETUP_KEY, type Template } from './hub-setup-api.ts';
import { storedTemplateValues, TemplateEditor } from './template-editor.tsx';
import './hub-setup.css';

/** One template: its content edited beside the live preview, and its deletion behind a confirmation. */
export function TemplatePage() {
  const { id = '' } = useParams({ strict: false }) as { id?: string };
  const notify = useStatus();
  const navigate = useNavigate();
  const client = useQueryClient();
  const key = [...SETUP_KEY, 'templates', 'one', id];
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      call(
        api.hub.GET('/comm/v1/templates/{templateId}', { params: { path: { templateId: id } }, signal }),
      ) as unknown as Promise<Template>,
  });
  const [deleting, setDeleting] = useState(false);
  const [busy, setBusy] = useState(false);
  const [deleteError, setDeleteError] = useState<unknown>(null);
  const t = query.data;
  if (t === undefined) {
    return (
      <Page title={id}>
        {query.isError ? (
          <ApiErrorView
            error={query.error}
            title="The template could not be loaded"
            onRetry={() => void query.refetch()}
          />
        ) : (
          <p aria-busy="true">Loading…</p>
        )}
        <p>
          <Link to="/hub/templates">All templates</Link>
        </p>
      </Page>
    );
  }
  const remove = async () => {
    setBusy(true);
    setDeleteError(null);
    try {
      await call(api.hub.DELETE('/comm/v1/templates/{templateId}', { params: { path: { templateId: id } } }));
      setDeleting(false);
      notify({ text: `Template ${id} deleted` });
      void client.invalidateQueries({ queryKey: [...SETUP_KEY, 'templates', 'list'] });
      void navigate({ to: '/hub/templates' });
    } catch (e) {
      setDeleteError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Page
      title={t.TemplateId}
      lead={`${t.Status} · revision ${t.Revision}, updated ${at(t.UpdatedAt)}. A change reaches new sends only: accepted notifications keep their snapshot.`}
      actions={
        <button
          type="button"
          className="button button-danger"
          onClick={() => {
            setDeleteError(null);
            setDeleting(true);
          }}
        >
          Delete
        </button>
      }
    >
      <TemplateEditor
        initial={storedTemplateValues(t)}
        templateId={t.TemplateId}
        submitLabel="Save template"
        onSaved={(saved) => {
          notify({ text: `Template ${saved.TemplateId} saved` });
          client.setQueryData(key, saved);
          void client.invalidateQueries({ queryKey: [...SETUP_KEY, 'templates', 'list'] });
        }}
      />
      <p>
        <Link to="/hub/templates">All templates</Link>
      </p>
      {deleting && (
        <ConfirmDialog
          title={`Delete the template ${t.TemplateId}?`}
          confirmLabel="Delete template"
          danger
          busy={busy}
          onConfirm={() => void remove()}
          onCancel={() => setDeleting(false)}
        >
          <p>
            Rules naming {t.TemplateCode} in {t.LanguageId} on {t.Channel} no longer find it for new sends.
          </p>
          {deleteError !== null && <ApiErrorView error={deleteError} title="Not deleted" />}
        </ConfirmDialog>
      )}
    </Page>
  );
}
