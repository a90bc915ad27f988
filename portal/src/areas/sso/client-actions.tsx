import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { useStatus } from '../../ui/status.tsx';
import type { ClientView } from './client-form.tsx';

type Pending = 'rotate' | 'disable' | 'enable';

/**
 * An application's actions, each behind a confirmation: rotate the secret (the new one goes to `onSecret`,
 * shown once by the page), disable (revokes every token issued to it) or enable. A platform-managed client
 * is offered no rotation: the platform holds its credentials.
 */
export function ClientActions({
  client,
  managed,
  onSecret,
}: {
  client: ClientView;
  managed: string | undefined;
  onSecret: (secret: string) => void;
}) {
  const notify = useStatus();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const id = client.client_id ?? '';
  const params = { params: { path: { id } } };

  const run = async (action: Pending) => {
    setBusy(true);
    setError(null);
    try {
      const after = await call(
        action === 'rotate'
          ? api.identity.POST('/cas/admin/v1/clients/{id}/rotate-secret', params)
          : action === 'disable'
            ? api.identity.POST('/cas/admin/v1/clients/{id}/disable', params)
            : api.identity.POST('/cas/admin/v1/clients/{id}/enable', params),
      );
      const { client_secret: secret, ...view } = after;
      queryClient.setQueryData(['identity', 'client', id], view);
      void queryClient.invalidateQueries({ queryKey: ['identity', 'clients'] });
      if (secret !== undefined) onSecret(secret);
      notify({ text: { rotate: 'New secret issued', disable: `${id} disabled`, enable: `${id} enabled` }[action] });
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
      setPending(null);
    }
  };

  const active = client.status === 'active';
  // the API rotates the secret of a client that authenticates with one (client_secret_basic or _post)
  const usesSecret = client.token_endpoint_auth_method?.startsWith('client_secret_') === true;
  return (
    <>
      <div className="action-row">
        {usesSecret && managed === undefined && (
          <button type="button" className="button" onClick={() => setPending('rotate')}>
            Rotate secret
          </button>
        )}
        {active ? (
          <button type="button" className="button button-danger" onClick={() => setPending('disable')}>
            Disable
          </button>
        ) : (
          <button type="button" className="button" onClick={() => setPending('enable')}>
            Enable
          </button>
        )}
      </div>
      {error !== null && <ApiErrorView error={error} title="Not done" />}
      {pending === 'rotate' && (
        <ConfirmDialog
          title={`Rotate the secret of ${id}?`}
          confirmLabel="Rotate secret"
          danger
          busy={busy}
          onConfirm={() => void run('rotate')}
          onCancel={() => setPending(null)}
        >
          <p>The current secret stops working at once; the new one is shown once.</p>
        </ConfirmDialog>
      )}
      {pending === 'disable' && (
        <ConfirmDialog
          title={`Disable ${id}?`}
          confirmLabel="Disable"
          danger
          busy={busy}
          onConfirm={() => void run('disable')}
          onCancel={() => setPending(null)}
        >
          <p>Every token issued to it is revoked, and it gets no new ones until it is enabled again.</p>
          {managed !== undefined && (
            <p>
              <strong>This client serves {managed}:</strong> disabling it stops that until it is enabled again.
            </p>
          )}
        </ConfirmDialog>
      )}
      {pending === 'enable' && (
        <ConfirmDialog
          title={`Enable ${id}?`}
          confirmLabel="Enable"
          busy={busy}
          onConfirm={() => void run('enable')}
          onCancel={() => setPending(null)}
        >
          <p>It gets tokens again; tokens revoked when it was disabled stay revoked.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
