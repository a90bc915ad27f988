import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { SecretOnce } from '../../ui/secret-once.tsx';
import { useStatus } from '../../ui/status.tsx';
import { DeliveryServiceForm, storedServiceValues } from './delivery-service-form.tsx';
import { at, type DeliveryService, SETUP_KEY, SIGNING_NOTE } from './hub-setup-api.ts';
import './hub-setup.css';

const OVERLAPS = [
  { value: '0', label: 'none: the old secret stops at once' },
  { value: '3600', label: '1 hour' },
  { value: '86400', label: '1 day' },
  { value: '604800', label: '7 days' },
];

/**
 * One delivery service: its settings (edited here: a change reaches new sends only), its signing
 * secret's rotation (the new secret shown once) and its deletion, each write behind a confirmation where
 * it cannot be undone. The API never answers the current secret, so neither does this page.
 */
export function DeliveryServicePage() {
  const { id = '' } = useParams({ strict: false }) as { id?: string };
  const notify = useStatus();
  const navigate = useNavigate();
  const client = useQueryClient();
  const key = [...SETUP_KEY, 'services', 'one', id];
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      call(
        api.hub.GET('/comm/v1/delivery-services/{serviceId}', { params: { path: { serviceId: id } }, signal }),
      ) as unknown as Promise<DeliveryService>,
  });
  // a rotated secret: this page's state only, gone when the page is left or reloaded
  const [secret, setSecret] = useState<{ value: string; previousUntil?: string } | null>(null);
  const [pending, setPending] = useState<'rotate' | 'delete' | null>(null);
  const [overlap, setOverlap] = useState('86400');
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<unknown>(null);
  const s = query.data;
  if (s === undefined) {
    return (
      <Page title={id}>
        {query.isError ? (
          <ApiErrorView
            error={query.error}
            title="The delivery service could not be loaded"
            onRetry={() => void query.refetch()}
          />
        ) : (
          <p aria-busy="true">Loading…</p>
        )}
        <p>
          <Link to="/hub/delivery-services">All delivery services</Link>
        </p>
      </Page>
    );
  }
  const act = async (what: 'rotate' | 'delete') => {
    setBusy(true);
    setActionError(null);
    try {
      if (what === 'rotate') {
        const r = (await call(
          api.hub.POST('/comm/v1/delivery-services/{serviceId}/rotate-signing-secret', {
            params: { path: { serviceId: id } },
            body: { OverlapSeconds: Number(overlap) },
          }),
        )) as unknown as { SigningSecret?: string; PreviousValidUntil?: string };
        setPending(null);
        if (r.SigningSecret !== undefined)
          setSecret({
            value: r.SigningSecret,
            ...(r.PreviousValidUntil !== undefined && { previousUntil: r.PreviousValidUntil }),
          });
        notify({ text: `Signing secret of ${id} rotated` });
      } else {
        await call(api.hub.DELETE('/comm/v1/delivery-services/{serviceId}', { params: { path: { serviceId: id } } }));
        setPending(null);
        notify({ text: `Delivery service ${id} deleted` });
        void client.invalidateQueries({ queryKey: [...SETUP_KEY, 'services'] });
        void navigate({ to: '/hub/delivery-services' });
      }
    } catch (e) {
      setActionError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Page
      title={s.Name ?? s.ServiceId}
      lead={
        <>
          <code>{s.ServiceId}</code> · {s.DriverType} · revision {s.Revision}, updated {at(s.UpdatedAt)}
        </>
      }
      actions={
        <span className="hs-row-actions">
          <button type="button" className="button" onClick={() => setPending('rotate')}>
            Rotate signing secret
          </button>
          <button type="button" className="button button-danger" onClick={() => setPending('delete')}>
            Delete
          </button>
        </span>
      }
    >
      {secret !== null && (
        <SecretOnce
          title={`New signing secret of ${s.ServiceId}`}
          secret={secret.value}
          note={
            secret.previousUntil !== undefined
              ? `${SIGNING_NOTE} The previous secret keeps signing until ${at(secret.previousUntil)}.`
              : SIGNING_NOTE
          }
          testId="signing-secret"
          onDone={() => setSecret(null)}
        />
      )}
      <section className="hs-section" aria-labelledby="hs-service-edit-title">
        <h2 id="hs-service-edit-title">Settings</h2>
        <p className="hs-note">
          A change reaches new sends only: notifications already accepted keep the configuration snapshot they were
          accepted with.
        </p>
        <DeliveryServiceForm
          initial={storedServiceValues(s)}
          serviceId={s.ServiceId}
          submitLabel="Save changes"
          onSaved={(saved) => {
            notify({ text: `Delivery service ${saved.ServiceId} saved (new sends use it)` });
            client.setQueryData(key, saved);
            void client.invalidateQueries({ queryKey: [...SETUP_KEY, 'services', 'list'] });
          }}
        />
      </section>
      <p>
        <Link to="/hub/delivery-services">All delivery services</Link>
      </p>
      {pending === 'rotate' && (
        <ConfirmDialog
          title={`Rotate the signing secret of ${s.ServiceId}?`}
          confirmLabel="Rotate secret"
          busy={busy}
          onConfirm={() => void act('rotate')}
          onCancel={() => setPending(null)}
        >
          <p>A new secret signs from now on; receivers need it before the overlap ends.</p>
          <div className="field">
            <label className="field-label" htmlFor="hs-overlap">
              Previous secret keeps signing for
            </label>
            <select id="hs-overlap" className="input" value={overlap} onChange={(e) => setOverlap(e.target.value)}>
              {OVERLAPS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
          {actionError !== null && <ApiErrorView error={actionError} title="Not rotated" />}
        </ConfirmDialog>
      )}
      {pending === 'delete' && (
        <ConfirmDialog
          title={`Delete the delivery service ${s.ServiceId}?`}
          confirmLabel="Delete delivery service"
          danger
          busy={busy}
          onConfirm={() => void act('delete')}
          onCancel={() => setPending(null)}
        >
          <p>
            Its signing secrets go with it. Rules that name it can no longer send; accepted notifications keep their
            snapshot.
          </p>
          {actionError !== null && <ApiErrorView error={actionError} title="Not deleted" />}
        </ConfirmDialog>
      )}
    </Page>
  );
}
