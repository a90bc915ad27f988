import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ScrollRegion } from '../../ui/scroll-region.tsx';
import { eligibilityOf, type MessageDetail, messageOf, timelineOf } from './hub-msg-api.ts';
import { MessageActions } from './message-actions.tsx';
import { localTime, MessageTimeline } from './message-timeline.tsx';
import './hub-msg.css';

/** states where the hub still works on the message: the page reads it again while it is open */
const LIVE = new Set(['PLANNED', 'SCHEDULED', 'WAITING', 'SUBMITTED', 'ACCEPTED']);

/**
 * One message: its state, channel, recipient and attempts, its timeline (every attempt, receipt and policy
 * decision) and the operator actions the API offers now, each behind a confirmation.
 */
export function MessagePage() {
  const { id } = useParams({ strict: false }) as { id: string };
  const client = useQueryClient();
  const message = useQuery({
    queryKey: ['hub', 'message', id],
    queryFn: ({ signal }) => messageOf(id, signal),
    refetchInterval: (q) => (q.state.data !== undefined && LIVE.has(q.state.data.State) ? 3000 : false),
  });
  const timeline = useQuery({
    queryKey: ['hub', 'message', id, 'timeline'],
    queryFn: ({ signal }) => timelineOf(id, signal),
    refetchInterval: () => (message.data !== undefined && LIVE.has(message.data.State) ? 3000 : false),
  });
  const eligibility = useQuery({
    queryKey: ['hub', 'message', id, 'eligibility'],
    queryFn: ({ signal }) => eligibilityOf(id, signal),
    refetchInterval: () => (message.data !== undefined && LIVE.has(message.data.State) ? 3000 : false),
  });
  const refresh = () => void client.invalidateQueries({ queryKey: ['hub', 'message', id] });
  const m = message.data;
  return (
    <Page
      title={`Message ${id}`}
      lead={
        m !== undefined ? (
          <>
            {m.Channel} message of notification{' '}
            <Link to="/hub/notifications/$id" params={{ id: m.NotificationId }}>
              {m.NotificationId}
            </Link>
            , now <strong className="hm-state">{m.State}</strong>
            {m.DeliveryUncertain && ' (delivery uncertain)'}.
          </>
        ) : undefined
      }
    >
      {message.isError ? (
        <ApiErrorView error={message.error} title="The message cannot be read" onRetry={() => void message.refetch()} />
      ) : m === undefined ? (
        <p aria-busy="true" className="hm-loading">
          Loading the message…
        </p>
      ) : (
        <>
          <section className="hm-section" aria-labelledby="hm-facts-title">
            <h2 id="hm-facts-title">The message</h2>
            <MessageFacts m={m} />
          </section>
          <section className="hm-section" aria-labelledby="hm-actions-title">
            <h2 id="hm-actions-title">Operator actions</h2>
            {eligibility.isError ? (
              <ApiErrorView
                error={eligibility.error}
                title="The actions cannot be read"
                onRetry={() => void eligibility.refetch()}
              />
            ) : eligibility.data === undefined ? (
              <p aria-busy="true">Reading which actions are possible…</p>
            ) : (
              <MessageActions messageId={id} eligibility={eligibility.data} onDone={refresh} />
            )}
          </section>
          <section className="hm-section" aria-labelledby="hm-attempts-title">
            <h2 id="hm-attempts-title">Attempts</h2>
            <Attempts m={m} />
          </section>
        </>
      )}
      <section className="hm-section" aria-labelledby="hm-timeline-title">
        <h2 id="hm-timeline-title">Timeline</h2>
        {timeline.isError ? (
          <ApiErrorView
            error={timeline.error}
            title="The timeline cannot be read"
            onRetry={() => void timeline.refetch()}
          />
        ) : timeline.data === undefined ? (
          <p aria-busy="true">Loading the timeline…</p>
        ) : (
          <MessageTimeline events={timeline.data.Events} />
        )}
      </section>
    </Page>
  );
}

function MessageFacts({ m }: { m: MessageDetail }) {
  const rows: Array<[string, ReactNode]> = [
    ['State', m.Reason !== undefined ? `${m.State} (${m.Reason})` : m.State],
    ['Channel', m.Channel],
    ['Role, order, strategy', `${m.Role}, #${m.OrderNo}, ${m.Strategy}`],
    [
      'Recipient',
      m.Recipient === undefined
        ? '—'
        : `${m.Recipient.Address}${m.Recipient.RecipientId ? ` (${m.Recipient.RecipientId})` : ''}`,
    ],
    ['Delivery service', m.ServiceId ?? '—'],
    ['Receipt mode', m.ReceiptMode ?? '—'],
    [
      'Template',
      m.Content === undefined
        ? '—'
        : `${m.Content.TemplateId} (${m.Content.LanguageId}, ${m.Content.ContentType})${m.Content.Subject ? `: ${m.Content.Subject}` : ''}`,
    ],
    [
      'Attempts',
      `${m.Attempts} (automatic ${m.AutoAttempts}${m.RetryPolicy ? ` of ${m.RetryPolicy.MaxAttempts}` : ''})`,
    ],
    ['Due', localTime(m.DueAt)],
  ];
  if (m.NextRetryTime !== undefined) rows.push(['Next retry', localTime(m.NextRetryTime)]);
  if (m.ReceiptDeadline !== undefined) rows.push(['Receipt awaited until', localTime(m.ReceiptDeadline)]);
  if (m.LastError !== undefined) rows.push(['Last error', m.LastError]);
  if (m.ProviderRef !== undefined) rows.push(['Provider reference', m.ProviderRef]);
  if ((m.Diagnostics ?? []).length > 0) rows.push(['Diagnostics', (m.Diagnostics ?? []).join('; ')]);
  rows.push(['Updated', localTime(m.UpdatedAt)]);
  return (
    <dl className="fact-box">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

function Attempts({ m }: { m: MessageDetail }) {
  if (m.AttemptDetails.length === 0) return <p className="empty">No attempt yet.</p>;
  return (
    <ScrollRegion label="Attempts">
      <table className="table">
        <caption className="visually-hidden">Attempts of the message</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Kind</th>
            <th scope="col">Service</th>
            <th scope="col">Started</th>
            <th scope="col">Outcome</th>
            <th scope="col">HTTP</th>
            <th scope="col">Error</th>
          </tr>
        </thead>
        <tbody>
          {m.AttemptDetails.map((a) => (
            <tr key={a.AttemptId}>
              <th scope="row" className="num">
                {a.AttemptNo}
              </th>
              <td>{a.Kind}</td>
              <td>
                <code>{a.ServiceId}</code>
              </td>
              <td className="nowrap">{localTime(a.StartedAt)}</td>
              <td>
                {a.Outcome ?? 'open'}
                {a.OutcomeAt !== undefined && <span className="hm-sub">{localTime(a.OutcomeAt)}</span>}
              </td>
              <td className="num">{a.HttpStatus ?? '—'}</td>
              <td>{a.Error ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
