import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { CopyButton } from '../../ui/copy-button.tsx';
import { useStatus } from '../../ui/status.tsx';
import { DestinationForm } from './api-destination-form.tsx';
import type { DestinationRow } from './api-destinations.page.tsx';
import { ADMIN, Fact, Time } from './ops.shared.tsx';

const ONE = `${ADMIN}/api-destinations/{name}` as const;

function Crumbs({ here }: { here: string }) {
  return (
    <nav className="breadcrumb" aria-label="Breadcrumb">
      <ol>
        <li>
          <Link to="/bridge/api-destinations">API destinations</Link>
        </li>
        <li aria-current="page">{here}</li>
      </ol>
    </nav>
  );
}

/** A signing secret the API shows this once: copy it now. */
function SecretOnce({ secret, validUntil }: { secret: string; validUntil?: string }) {
  return (
    <div className="secret-once" role="status">
      <p>
        <strong>Signing secret, shown this once:</strong> <code>{secret}</code>{' '}
        <CopyButton value={secret} label="Copy secret" />
      </p>
      <p>
        Receivers check each delivery's Standard Webhooks signature with it.
        {validUntil !== undefined && (
          <>
            {' '}
            The previous secret keeps signing until <Time iso={validUntil} />.
          </>
        )}
      </p>
    </div>
  );
}

export function NewApiDestinationPage() {
  const notify = useStatus();
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  return (
    <>
      <Crumbs here="New API destination" />
      <Page title="New API destination">
        {created !== null ? (
          <>
            <SecretOnce secret={created.secret} />
            <Link to="/bridge/api-destinations/$name" params={{ name: created.name }} className="button">
              Open {created.name}
            </Link>
          </>
        ) : (
          <DestinationForm
            submitLabel="Create API destination"
            submit={(b) =>
              call(
                api.bridge.POST(`${ADMIN}/api-destinations`, {
                  body: {
                    name: b.name,
                    ...(b.description !== null && { description: b.description }),
                    urlTemplate: b.urlTemplate,
                    method: b.method,
                    ...(b.connection !== null && { connection: b.connection }),
                    ...(b.timeoutMs !== null && { timeoutMs: b.timeoutMs }),
                  },
                }),
              )
            }
            onSuccess={(r) => {
              const d = r as { name: string; signingSecret?: string };
              notify({ kind: 'success', text: `API destination ${d.name} created` });
              void queryClient.invalidateQueries({ queryKey: ['bridge', 'api-destinations'] });
              setCreated({ name: d.name, secret: d.signingSecret ?? '' });
            }}
          />
        )}
      </Page>
    </>
  );
}

/** One API destination: change it, rotate its signing secret (the new one shown once), delete it. */
export function ApiDestinationPage() {
  const { name } = useParams({ strict: false }) as { name: string };
  const notify = useStatus();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<'rotate' | 'delete' | null>(null);
  const [rotated, setRotated] = useState<{ secret: string; validUntil?: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const query = useQuery({
    queryKey: ['bridge', 'api-destination', name],
    queryFn: async ({ signal }) =>
      (await call(api.bridge.GET(ONE, { params: { path: { name } }, signal }))) as unknown as DestinationRow,
  });
  const d = query.data;
  const act = async (what: 'rotate' | 'delete') => {
    setPending(null);
    setError(null);
    try {
      if (what === 'rotate') {
        const r = await call(api.bridge.POST(`${ONE}/rotate-signing-secret`, { params: { path: { name } }, body: {} }));
        setRotated({
          secret: r.signingSecret ?? '',
          ...(typeof r.previousValidUntil === 'string' && { validUntil: r.previousValidUntil }),
        });
        notify({ kind: 'success', text: 'A new signing secret is in use' });
      } else {
        await call(api.bridge.DELETE(ONE, { params: { path: { name } } }));
        notify({ kind: 'success', text: `API destination ${name} deleted` });
        void queryClient.invalidateQueries({ queryKey: ['bridge', 'api-destinations'] });
        void navigate({ to: '/bridge/api-destinations' });
      }
    } catch (err) {
      setError(err);
    }
  };
  return (
    <>
      <Crumbs here={name} />
      <Page
        title={`API destination ${name}`}
        actions={
          <div className="inline-actions">
            <button type="button" className="button" disabled={d === undefined} onClick={() => setPending('rotate')}>
              Rotate signing secret
            </button>
            <button
              type="button"
              className="button button-danger"
              disabled={d === undefined}
              onClick={() => setPending('delete')}
            >
              Delete
            </button>
          </div>
        }
      >
        {query.isError && (
          <ApiErrorView
            error={query.error}
            title="The API destination could not be loaded"
            onRetry={() => void query.refetch()}
          />
        )}
        {error !== null && <ApiErrorView error={error} />}
        {rotated !== null && (
          <SecretOnce
            secret={rotated.secret}
            {...(rotated.validUntil !== undefined && { validUntil: rotated.validUntil })}
          />
        )}
        {d !== undefined && (
          <>
            <dl className="facts">
              <Fact term="Signing secret">set (never shown again; rotate for a new one)</Fact>
              <Fact term="Connection">{d.connection ?? 'none'}</Fact>
              <Fact term="Changed">
                <Time iso={d.updatedAt} />
              </Fact>
            </dl>
            <section className="ops-section" aria-labelledby="edit-destination">
              <h2 id="edit-destination">Change</h2>
              <DestinationForm
                key={d.updatedAt}
                existing={d}
                submitLabel="Save changes"
                submit={(b) =>
                  call(
                    api.bridge.PUT(ONE, {
                      params: { path: { name } },
                      body: {
                        description: b.description,
                        urlTemplate: b.urlTemplate,
                        method: b.method,
                        connection: b.connection,
                        timeoutMs: b.timeoutMs,
                      },
                    }),
                  )
                }
                onSuccess={() => {
                  notify({ kind: 'success', text: `API destination ${name} saved` });
                  void query.refetch();
                  void queryClient.invalidateQueries({ queryKey: ['bridge', 'api-destinations'] });
                }}
              />
            </section>
          </>
        )}
        {pending === 'rotate' && (
          <ConfirmDialog
            title="Rotate the signing secret?"
            confirmLabel="Rotate"
            onConfirm={() => void act('rotate')}
            onCancel={() => setPending(null)}
          >
            <p>A new secret signs deliveries at once; the previous one keeps signing for 24 hours beside it.</p>
          </ConfirmDialog>
        )}
        {pending === 'delete' && (
          <ConfirmDialog
            title={`Delete API destination ${name}?`}
            confirmLabel="Delete"
            danger
            onConfirm={() => void act('delete')}
            onCancel={() => setPending(null)}
          >
            <p>Rules that name it fail their deliveries without retry.</p>
          </ConfirmDialog>
        )}
      </Page>
    </>
  );
}
