import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { sessionQuery } from '../../api/session.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { useStatus } from '../../ui/status.tsx';
import { StatusBadge } from './status-badge.tsx';
import './sso.css';

const when = (iso: string | null | undefined, none: string) =>
  iso == null ? none : <time dateTime={iso}>{new Date(iso).toLocaleString()}</time>;

/**
 * SSO Config > Signing keys: the platform's keys (one ring signs every tenant's tokens) with their
 * rotation state. Only the platform tenant's administrators rotate (docs/identity.md), so only they are
 * offered the button.
 */
export function KeysPage() {
  const session = useQuery(sessionQuery).data;
  const mayRotate = session?.platformAdmin === true;
  return (
    <Page
      title="Signing keys"
      lead="The keys the identity provider signs tokens with, for every tenant. A new key is published before it signs; an old one stays published until the tokens it signed have expired."
      actions={mayRotate ? <RotateKey /> : undefined}
    >
      {!mayRotate && <p className="field-hint">Rotation is for the administrators of the platform tenant.</p>}
      <PagedTable
        caption="Signing keys"
        captionHidden
        queryKey={['identity', 'keys']}
        fetchPage={async ({ offset, limit }, signal) => {
          const page = await call(
            api.identity.GET('/cas/admin/v1/keys', { params: { query: { offset, limit } }, signal }),
          );
          return { items: page.items ?? [], ...(page.total !== undefined && { total: page.total }) };
        }}
        rowKey={(k) => k.kid}
        columns={[
          { key: 'kid', header: 'Key ID', rowHeader: true, className: 'kid', cell: (k) => k.kid },
          { key: 'state', header: 'State', cell: (k) => <StatusBadge status={k.state} /> },
          { key: 'from', header: 'Signs from', cell: (k) => when(k.signs_from, '') },
          { key: 'until', header: 'Stops signing', cell: (k) => when(k.signs_until, 'no successor yet') },
          { key: 'published', header: 'Leaves the JWKS', cell: (k) => when(k.published_until, 'while it signs') },
        ]}
        pageSize={10}
        empty="No signing key yet: the first token creates one."
      />
    </Page>
  );
}

function RotateKey() {
  const notify = useStatus();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const rotate = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await call(api.identity.POST('/cas/admin/v1/keys/rotate', { body: {} }));
      notify({
        text: `New signing key published: it signs from ${new Date(r.key?.signs_from ?? '').toLocaleString()}`,
      });
      await queryClient.invalidateQueries({ queryKey: ['identity', 'keys'] });
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
      setPending(false);
    }
  };
  return (
    <>
      <button type="button" className="button button-primary" onClick={() => setPending(true)}>
        Rotate
      </button>
      {error !== null && <ApiErrorView error={error} title="Not rotated" />}
      {pending && (
        <ConfirmDialog
          title="Rotate the signing key?"
          confirmLabel="Rotate"
          busy={busy}
          onConfirm={() => void rotate()}
          onCancel={() => setPending(false)}
        >
          <p>
            A new key is published now and signs after the publish delay (5 minutes), so verifiers learn it first. The
            current key signs until then and stays published until its tokens have expired.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
