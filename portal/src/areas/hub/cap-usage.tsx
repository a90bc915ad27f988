import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useId, useState } from 'react';
import { api, call } from '../../api/client.ts';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ScrollRegion } from '../../ui/scroll-region.tsx';
import { at, type CapUsage, classLabel, readableCap } from './hub-policy-api.ts';

/**
 * A recipient's quota, live from its stream: the usage against each cap now and the reservations in the
 * longest window (a released one no longer counts).
 */
export function CapUsagePanel() {
  const id = useId();
  const [draft, setDraft] = useState('');
  const [asked, setAsked] = useState('');
  const usage = useQuery({
    queryKey: ['hub', 'frequency-caps', 'usage', asked],
    queryFn: ({ signal }) =>
      call(
        api.hub.GET('/comm/v1/frequency-caps/usage', { params: { query: { recipientId: asked } }, signal }),
      ) as unknown as Promise<CapUsage>,
    enabled: asked !== '',
    retry: false,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setAsked(draft.trim());
  };
  const d = usage.data;
  return (
    <section className="hp-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>A recipient's usage</h2>
      <form className="form hp-inline-form" onSubmit={submit} aria-label="A recipient's usage">
        <div className="field">
          <label htmlFor={`${id}-rid`} className="field-label">
            Recipient ID for usage
          </label>
          <input id={`${id}-rid`} className="input" value={draft} onChange={(e) => setDraft(e.target.value)} />
        </div>
        <div className="form-actions">
          <button type="submit" className="button button-primary">
            Show usage
          </button>
        </div>
      </form>
      {asked !== '' && usage.isPending && <p className="skeleton">Reading the quota of {asked}…</p>}
      {usage.isError && <ApiErrorView error={usage.error} onRetry={() => void usage.refetch()} />}
      {d !== undefined && (
        <>
          {d.Caps.length === 0 ? (
            <p className="empty">No cap is configured: nothing is counted for {d.RecipientId}.</p>
          ) : (
            <ScrollRegion label={`Usage of ${d.RecipientId}`}>
              <table className="table">
                <caption>Usage of {d.RecipientId} now</caption>
                <thead>
                  <tr>
                    <th scope="col">Category</th>
                    <th scope="col">Cap</th>
                    <th scope="col">Used</th>
                    <th scope="col">Left</th>
                  </tr>
                </thead>
                <tbody>
                  {d.Caps.map((c) => (
                    <tr key={c.Category}>
                      <th scope="row">{classLabel(c.Category)}</th>
                      <td>{readableCap(c)}</td>
                      <td>{c.Used}</td>
                      <td>{Math.max(0, c.Limit - c.Used)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          )}
          {d.Reservations.length === 0 ? (
            <p className="empty">No reservation in the caps' windows.</p>
          ) : (
            <ScrollRegion label={`Reservations of ${d.RecipientId}`}>
              <table className="table">
                <caption>Reservations of {d.RecipientId}</caption>
                <thead>
                  <tr>
                    <th scope="col">Message</th>
                    <th scope="col">Channel</th>
                    <th scope="col">Class</th>
                    <th scope="col">Reserved</th>
                    <th scope="col">Released</th>
                  </tr>
                </thead>
                <tbody>
                  {d.Reservations.map((r) => (
                    <tr key={r.MessageId}>
                      <th scope="row">
                        <Link to="/hub/messages/$id" params={{ id: r.MessageId }}>
                          {r.MessageId}
                        </Link>
                      </th>
                      <td>{r.Channel}</td>
                      <td>{r.NotificationClass}</td>
                      <td>{at(r.At)}</td>
                      <td>{r.ReleasedAt === undefined ? 'holds its slot' : at(r.ReleasedAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          )}
        </>
      )}
    </section>
  );
}
