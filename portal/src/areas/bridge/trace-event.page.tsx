import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ScrollRegion } from '../../ui/scroll-region.tsx';
import { byTarget, type DeliveryStep, Fact, JsonBlock, OutcomeBadge, outcomeOf, Time } from './ops.shared.tsx';
import { BusLink } from './trace.page.tsx';
import { traceById } from './trace-search.ts';

const TYPES: Record<number, string> = {
  1: 'mail',
  2: 'message queue',
  3: 'preset HTTP',
  4: 'API destination',
  5: 'message box',
};

/** One event's whole trace: receipt, filtering (the rules that matched and why others did not), delivery per target. */
export function TraceEventPage() {
  const { eventId } = useParams({ strict: false }) as { eventId: string };
  const query = useQuery({
    queryKey: ['bridge', 'trace-event', eventId],
    queryFn: ({ signal }) => traceById(eventId, signal),
    // deliveries move on while the page is open: look again now and then
    refetchInterval: 5000,
  });
  const t = query.data;
  if (query.isError)
    return (
      <Page title="Event">
        <ApiErrorView error={query.error} title="The trace could not be loaded" onRetry={() => void query.refetch()} />
      </Page>
    );
  if (t === null) {
    return (
      <Page
        title="No such event"
        lead={
          <span>
            There is no trace for the event id <code>{eventId}</code>.
          </span>
        }
      >
        <Link to="/bridge">Event buses</Link>
      </Page>
    );
  }
  const groups = t === undefined ? [] : [...byTarget(t.delivery).entries()];
  return (
    <>
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <ol>
          <li>
            <Link to="/bridge">Event buses</Link>
          </li>
          {t !== undefined && (
            <>
              <li>
                <BusLink bus={t.bus} />
              </li>
              <li>
                <Link to="/bridge/buses/$bus/trace" params={{ bus: t.bus }}>
                  Event trace
                </Link>
              </li>
            </>
          )}
          <li aria-current="page">Event</li>
        </ol>
      </nav>
      <Page title={t === undefined ? 'Event' : `Event ${t.receipt.id}`} lead={<span className="mono">{eventId}</span>}>
        <section className="ops-section" aria-labelledby="receipt" aria-busy={t === undefined}>
          <h2 id="receipt">Receipt</h2>
          {t === undefined ? (
            <p className="skeleton" />
          ) : (
            <>
              <dl className="facts">
                <Fact term="Received">
                  <Time iso={t.receipt.receivedAt} />
                </Fact>
                <Fact term="Bus">{t.bus}</Fact>
                <Fact term="Source">{t.receipt.source}</Fact>
                <Fact term="Type">{t.receipt.type}</Fact>
                <Fact term="Subject">{t.receipt.subject}</Fact>
                <Fact term="Producer's id">{t.receipt.id}</Fact>
                <Fact term="Event time">{t.receipt.time}</Fact>
              </dl>
              <h3>Content</h3>
              <JsonBlock value={t.event} label="The event as received" />
              {(t.notes ?? []).map((n) => (
                <p key={n.at}>
                  <Time iso={n.at} />: sent again with other content ({n.fields.join(', ')})
                </p>
              ))}
            </>
          )}
        </section>

        <section className="ops-section" aria-labelledby="filtering">
          <h2 id="filtering">Filtering</h2>
          {t === undefined ? null : t.filtering === null ? (
            <p>Not routed yet.</p>
          ) : (
            <>
              <p>
                Routed <Time iso={t.filtering.routedAt} />: {t.filtering.evaluated.length} rules evaluated,{' '}
                {t.filtering.matched.length} matched ({t.filtering.applied} rules applied).
              </p>
              <ScrollRegion label="Rules that matched">
                <table className="table">
                  <caption>Rules that matched</caption>
                  <thead>
                    <tr>
                      <th scope="col">Rule</th>
                      <th scope="col">Kind</th>
                      <th scope="col">Targets</th>
                    </tr>
                  </thead>
                  <tbody>
                    {t.filtering.matched.length === 0 ? (
                      <tr>
                        <td colSpan={3} className="table-empty">
                          No rule matched.
                        </td>
                      </tr>
                    ) : (
                      t.filtering.matched.map((m) => (
                        <tr key={`${m.ruleTenant}/${m.ruleId}`}>
                          <th scope="row">{m.ruleId}</th>
                          <td>{m.platform ? 'platform rule' : 'tenant rule'}</td>
                          <td>
                            {m.targets
                              .map(
                                (x) =>
                                  `target ${x.targetId} (${TYPES[x.typeId] ?? x.typeId}): ${x.conversion.ok ? 'converted' : `conversion failed${x.conversion.error !== undefined ? `: ${x.conversion.error}` : ''}`}`,
                              )
                              .join('; ')}
                          </td>
                        </tr>
                      ))
                    )}
                  </tbody>
                </table>
              </ScrollRegion>
              {t.filtering.skipped.length > 0 && (
                <ul>
                  {t.filtering.skipped.map((s) => (
                    <li key={`${s.ruleTenant}/${s.ruleId}`}>
                      {s.ruleId} skipped: {s.reason}
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
        </section>

        <section className="ops-section" aria-labelledby="delivery">
          <h2 id="delivery">Delivery</h2>
          {t !== undefined && groups.length === 0 && <p>Nothing to deliver.</p>}
          {groups.map(([key, steps]) => (
            <DeliveryTable key={key} steps={steps} />
          ))}
        </section>
      </Page>
    </>
  );
}

function DeliveryTable({ steps }: { steps: DeliveryStep[] }) {
  const first = steps[0]!;
  const outcome = outcomeOf(steps[steps.length - 1]!);
  return (
    <>
      <h3>
        Rule {first.ruleId}, target {first.targetId}: <OutcomeBadge outcome={outcome} />
      </h3>
      <ScrollRegion label={`Delivery to ${first.ruleId} target ${first.targetId}`}>
        <table className="table">
          <caption className="visually-hidden">
            Delivery stages of rule {first.ruleId}, target {first.targetId}
          </caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Stage</th>
              <th scope="col">Attempt</th>
              <th scope="col">HTTP status</th>
              <th scope="col">Error</th>
              <th scope="col">Next attempt</th>
            </tr>
          </thead>
          <tbody>
            {steps.map((s, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: steps are an append-only log; the index is their place in it
              <tr key={i}>
                <td>
                  <Time iso={s.at} />
                </td>
                <th scope="row">{s.status}</th>
                <td>{s.attempt}</td>
                <td>{s.httpStatus ?? ''}</td>
                <td className="cell-wrap">{s.error ?? s.reason ?? ''}</td>
                <td>
                  {s.status === 'failed' ? (
                    s.nextAttemptAt === null ? (
                      'none (retries over)'
                    ) : (
                      <Time iso={s.nextAttemptAt} />
                    )
                  ) : (
                    ''
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </>
  );
}
