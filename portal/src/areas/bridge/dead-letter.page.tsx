import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { ScrollRegion } from '../../ui/scroll-region.tsx';
import { useStatus } from '../../ui/status.tsx';
import type { DeadLetter } from './dead-letters.page.tsx';
import { ADMIN, Fact, JsonBlock, Time } from './ops.shared.tsx';

type Detail = DeadLetter & { event: unknown; payload: unknown; history: Array<Record<string, unknown>> };

const PATH = `${ADMIN}/rules/{ruleId}/targets/{targetId}/dead-letters/{deliveryId}` as const;

/** One dead letter: the event, the payload the target got, the last error and every attempt; redrive it. */
export function DeadLetterPage() {
  const params = useParams({ strict: false }) as { ruleId: string; targetId: string; deliveryId: string };
  const path = { ruleId: params.ruleId, targetId: Number(params.targetId), deliveryId: params.deliveryId };
  const notify = useStatus();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [redriven, setRedriven] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const query = useQuery({
    queryKey: ['bridge', 'dead-letter', path],
    queryFn: async ({ signal }) =>
      (await call(api.bridge.GET(PATH, { params: { path }, signal }))) as unknown as Detail,
  });
  const d = query.data;

  const redrive = async () => {
    setBusy(true);
    setError(null);
    try {
      await call(api.bridge.POST(`${PATH}/redrive`, { params: { path } }));
      setRedriven(true);
      notify({ kind: 'success', text: 'Redriven: a new round of attempts has started' });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  return (
    <>
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <ol>
          <li>
            <Link to="/bridge/dead-letters">Dead letters</Link>
          </li>
          <li aria-current="page">Dead letter</li>
        </ol>
      </nav>
      <Page
        title={d === undefined ? 'Dead letter' : `Dead letter of ${d.sourceEventId}`}
        actions={
          <button
            type="button"
            className="button button-primary"
            disabled={d === undefined || redriven}
            onClick={() => setConfirming(true)}
          >
            Redrive
          </button>
        }
      >
        {query.isError && <ApiErrorView error={query.error} title="The dead letter could not be loaded" />}
        {error !== null && <ApiErrorView error={error} title="Not redriven" />}
        {redriven && d !== undefined && (
          <div className="result-panel" role="status">
            <p>
              Redriven. Follow the delivery in the{' '}
              <Link to="/bridge/trace/$eventId" params={{ eventId: d.eventId }}>
                event's trace
              </Link>
              .
            </p>
          </div>
        )}
        {d !== undefined && (
          <>
            <section className="ops-section" aria-labelledby="dl-facts">
              <h2 id="dl-facts">Last error</h2>
              <dl className="facts">
                <Fact term="Dead-lettered">
                  <Time iso={d.deadLetteredAt} />
                </Fact>
                <Fact term="Rule → target">{`${d.ruleId} → ${d.targetId}`}</Fact>
                <Fact term="Error class">{d.errorClass}</Fact>
                <Fact term="HTTP status">{d.httpStatus}</Fact>
                <Fact term="Attempts">{d.attempts}</Fact>
                <Fact term="Last error">{d.lastError}</Fact>
                <Fact term="Event">
                  <Link to="/bridge/trace/$eventId" params={{ eventId: d.eventId }}>
                    {d.source} {d.type}
                  </Link>
                </Fact>
                <Fact term="Delivery id">
                  <span className="mono">{d.deliveryId}</span>
                </Fact>
              </dl>
            </section>
            <section className="ops-section" aria-labelledby="dl-payload">
              <h2 id="dl-payload">Payload</h2>
              <JsonBlock value={d.payload} label="The payload the target was sent" />
            </section>
            <section className="ops-section" aria-labelledby="dl-event">
              <h2 id="dl-event">Event</h2>
              <JsonBlock value={d.event} label="The event as received" />
            </section>
            <section className="ops-section" aria-labelledby="dl-history">
              <h2 id="dl-history">Attempts</h2>
              <ScrollRegion label="Every attempt">
                <table className="table">
                  <caption className="visually-hidden">Every attempt of this delivery</caption>
                  <thead>
                    <tr>
                      <th scope="col">Attempt</th>
                      <th scope="col">Time</th>
                      <th scope="col">Outcome</th>
                      <th scope="col">HTTP status</th>
                      <th scope="col">Error</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.history.map((h, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the attempts are a log; the index is their place in it
                      <tr key={i}>
                        <th scope="row">{String(h.attempt ?? i + 1)}</th>
                        <td>
                          <Time iso={typeof h.at === 'string' ? h.at : undefined} />
                        </td>
                        <td>{String(h.status ?? '')}</td>
                        <td>{h.httpStatus === undefined ? '' : String(h.httpStatus)}</td>
                        <td className="cell-wrap">{String(h.error ?? '')}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollRegion>
            </section>
          </>
        )}
        {confirming && d !== undefined && (
          <ConfirmDialog
            title="Redrive this dead letter?"
            confirmLabel="Redrive"
            busy={busy}
            onConfirm={() => void redrive()}
            onCancel={() => setConfirming(false)}
          >
            <p>
              It gets a new round of attempts to {d.ruleId} → target {d.targetId}, with the same delivery id.
            </p>
          </ConfirmDialog>
        )}
      </Page>
    </>
  );
}
