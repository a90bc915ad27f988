import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { useStatus } from '../../ui/status.tsx';
import { AUTH_LABELS, secretSet } from './connection-auth.ts';
import { ConnectionForm } from './connection-form.tsx';
import type { ConnectionRow } from './connections.page.tsx';
import { ADMIN, Fact, Time } from './ops.shared.tsx';

const ONE = `${ADMIN}/connections/{name}` as const;

function Crumbs({ here }: { here: string }) {
  return (
    <nav className="breadcrumb" aria-label="Breadcrumb">
      <ol>
        <li>
          <Link to="/bridge/connections">Connections</Link>
        </li>
        <li aria-current="page">{here}</li>
      </ol>
    </nav>
  );
}

export function NewConnectionPage() {
  const notify = useStatus();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const created = useRef('');
  return (
    <>
      <Crumbs here="New connection" />
      <Page title="New connection">
        <ConnectionForm
          submitLabel="Create connection"
          submit={async (body) => {
            created.current = body.name;
            return call(api.bridge.POST(`${ADMIN}/connections`, { body: body }));
          }}
          onSuccess={() => {
            notify({ kind: 'success', text: `Connection ${created.current} created` });
            void queryClient.invalidateQueries({ queryKey: ['bridge', 'connections'] });
            void navigate({ to: '/bridge/connections/$name', params: { name: created.current } });
          }}
        />
      </Page>
    </>
  );
}

/** One connection: what it is (secrets: set or not), its form, and delete (refused while destinations use it). */
export function ConnectionPage() {
  const { name } = useParams({ strict: false }) as { name: string };
  const notify = useStatus();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [deleteError, setDeleteError] = useState<unknown>(null);
  const query = useQuery({
    queryKey: ['bridge', 'connection', name],
    queryFn: async ({ signal }) =>
      (await call(api.bridge.GET(ONE, { params: { path: { name } }, signal }))) as unknown as ConnectionRow,
  });
  const c = query.data;
  const remove = async () => {
    setConfirming(false);
    setDeleteError(null);
    try {
      await call(api.bridge.DELETE(ONE, { params: { path: { name } } }));
      notify({ kind: 'success', text: `Connection ${name} deleted` });
      void queryClient.invalidateQueries({ queryKey: ['bridge', 'connections'] });
      void navigate({ to: '/bridge/connections' });
    } catch (err) {
      setDeleteError(err);
    }
  };
  return (
    <>
      <Crumbs here={name} />
      <Page
        title={`Connection ${name}`}
        actions={
          <button
            type="button"
            className="button button-danger"
            disabled={c === undefined}
            onClick={() => setConfirming(true)}
          >
            Delete
          </button>
        }
      >
        {query.isError && (
          <ApiErrorView
            error={query.error}
            title="The connection could not be loaded"
            onRetry={() => void query.refetch()}
          />
        )}
        {deleteError !== null && <ApiErrorView error={deleteError} title="Not deleted" />}
        {c !== undefined && (
          <>
            <dl className="facts">
              <Fact term="Authentication">{c.auth.kind !== undefined ? AUTH_LABELS[c.auth.kind] : ''}</Fact>
              <Fact term="Secret">{secretSet(c.auth) ? 'set' : 'not set'}</Fact>
              <Fact term="Changed">
                <Time iso={c.updatedAt} />
              </Fact>
            </dl>
            <section className="ops-section" aria-labelledby="edit-connection">
              <h2 id="edit-connection">Change</h2>
              <ConnectionForm
                key={c.updatedAt}
                existing={c}
                submitLabel="Save changes"
                submit={(body) =>
                  call(
                    api.bridge.PUT(ONE, {
                      params: { path: { name } },
                      body: { description: body.description ?? '', auth: body.auth },
                    }),
                  )
                }
                onSuccess={() => {
                  notify({ kind: 'success', text: `Connection ${name} saved` });
                  void query.refetch();
                  void queryClient.invalidateQueries({ queryKey: ['bridge', 'connections'] });
                }}
              />
            </section>
          </>
        )}
        {confirming && (
          <ConfirmDialog
            title={`Delete connection ${name}?`}
            confirmLabel="Delete"
            danger
            onConfirm={() => void remove()}
            onCancel={() => setConfirming(false)}
          >
            <p>API destinations that use it must be changed first.</p>
          </ConfirmDialog>
        )}
      </Page>
    </>
  );
}
