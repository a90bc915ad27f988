import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { Page } from '../../shell/page.tsx';
import { SecretOnce } from '../../ui/secret-once.tsx';
import { useStatus } from '../../ui/status.tsx';
import { DeliveryServiceForm, newServiceValues } from './delivery-service-form.tsx';
import { SETUP_KEY, SIGNING_NOTE } from './hub-setup-api.ts';
import './hub-setup.css';

/**
 * Delivery services > Create: the service and its driver's settings, checked as typed. The creation's
 * answer carries the webhook signing secret, the only time the API shows it: it is shown here once, in
 * this page's state only (a reload or leaving the page drops it).
 */
export function DeliveryServiceNewPage() {
  const notify = useStatus();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [created, setCreated] = useState<{ id: string; secret?: string } | null>(null);
  if (created !== null) {
    const open = () => void navigate({ to: '/hub/delivery-services/$id', params: { id: created.id } });
    return (
      <Page title="Delivery service created" lead={<code>{created.id}</code>}>
        {created.secret !== undefined ? (
          <SecretOnce
            title={`Signing secret of ${created.id}`}
            secret={created.secret}
            note={SIGNING_NOTE}
            testId="signing-secret"
            onDone={open}
          />
        ) : (
          <p>This driver signs nothing: there is no secret to copy.</p>
        )}
        <p>
          <Link to="/hub/delivery-services/$id" params={{ id: created.id }}>
            Open the delivery service
          </Link>
        </p>
      </Page>
    );
  }
  return (
    <Page
      title="Create a delivery service"
      lead="The driver checks its settings as you type; nothing is called until a message is sent."
    >
      <DeliveryServiceForm
        initial={newServiceValues()}
        submitLabel="Create delivery service"
        onSaved={(saved) => {
          notify({ text: `Delivery service ${saved.ServiceId} created` });
          void client.invalidateQueries({ queryKey: [...SETUP_KEY, 'services'] });
          setCreated({
            id: saved.ServiceId,
            ...(saved.SigningSecret !== undefined && { secret: saved.SigningSecret }),
          });
        }}
      />
    </Page>
  );
}
