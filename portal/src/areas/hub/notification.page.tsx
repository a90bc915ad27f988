import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ScrollRegion } from '../../ui/scroll-region.tsx';
import { type SendRequest, sendRequestOf } from './hub-msg-api.ts';
import { localTime } from './message-timeline.tsx';
import './hub-msg.css';

/**
 * One notification: its send request's live progress (read from the notification's stream, again every
 * few seconds until it completes) and its messages, each opening its own page with the timeline.
 */
export function NotificationPage() {
  const { id } = useParams({ strict: false }) as { id: string };
  const q = useQuery({
    queryKey: ['hub', 'notification', id],
    queryFn: ({ signal }) => sendRequestOf(id, signal),
    refetchInterval: (query) => (query.state.data?.Completed === false ? 3000 : false),
  });
  const n = q.data;
  return (
    <Page
      title={`Notification ${id}`}
      lead={
        <>
          {n !== undefined && (
            <>
              <code>{n.NotificationCode}</code>, request <code>{n.RequestId}</code>, accepted {localTime(n.AcceptedAt)};{' '}
              {n.Completed ? <strong>completed</strong> : <strong>in progress</strong>}.{' '}
            </>
          )}
          <Link to="/hub/notifications">Search notifications</Link>
        </>
      }
    >
      {q.isError ? (
        <ApiErrorView error={q.error} title="The notification cannot be read" onRetry={() => void q.refetch()} />
      ) : n === undefined ? (
        <p aria-busy="true" className="hm-loading">
          Loading the notification…
        </p>
      ) : (
        <>
          <section className="hm-section" aria-labelledby="hn-facts-title">
            <h2 id="hn-facts-title">Send request</h2>
            <Facts n={n} />
          </section>
          <section className="hm-section" aria-labelledby="hn-messages-title">
            <h2 id="hn-messages-title">Messages</h2>
            <Messages n={n} />
          </section>
        </>
      )}
    </Page>
  );
}

function Facts({ n }: { n: SendRequest }) {
  const counts = Object.entries(n.Counts)
    .filter(([, c]) => c > 0)
    .map(([state, c]) => `${c} ${state}`)
    .join(', ');
  const rows: Array<[string, ReactNode]> = [
    [
      'Progress',
      `${n.Completed ? 'Completed' : 'In progress'}: ${counts || 'no message'}${n.Uncertain ? `, ${n.Uncertain} uncertain` : ''}`,
    ],
    ['Class', n.NotificationClass],
    [
      'Definition',
      <Link key="d" to="/hub/definitions/$id" params={{ id: n.DefinitionId }}>
        {n.DefinitionId}
      </Link>,
    ],
    [
      'Configuration snapshot',
      <Link key="s" to="/hub/snapshots/$id" params={{ id: n.SnapshotId }}>
        {n.SnapshotId}
      </Link>,
    ],
    ['Accepted', localTime(n.AcceptedAt)],
    ['Time zone', n.TimeZone],
  ];
  if (n.SendAt !== undefined) rows.push(['Send at', localTime(n.SendAt)]);
  if (n.ExpiresAt !== undefined) rows.push(['Expires', localTime(n.ExpiresAt)]);
  if (n.SenderApp !== undefined) rows.push(['Sender application', n.SenderApp]);
  if (n.RefType !== undefined || n.RefNumber !== undefined)
    rows.push(['Reference', `${n.RefType ?? ''} ${n.RefNumber ?? ''}`.trim()]);
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

function Messages({ n }: { n: SendRequest }) {
  if (n.Messages.length === 0) return <p className="empty">No message was planned for this notification.</p>;
  return (
    <ScrollRegion label="Messages of the notification">
      <table className="table">
        <caption className="visually-hidden">Messages of notification {n.NotificationId}</caption>
        <thead>
          <tr>
            <th scope="col">Message</th>
            <th scope="col">Role</th>
            <th scope="col">Channel</th>
            <th scope="col">State</th>
            <th scope="col">Attempts</th>
            <th scope="col">Next / last</th>
          </tr>
        </thead>
        <tbody>
          {n.Messages.map((m) => (
            <tr key={m.MessageId}>
              <th scope="row">
                <Link to="/hub/messages/$id" params={{ id: m.MessageId }} className="hm-id">
                  {m.MessageId}
                </Link>
              </th>
              <td>
                {m.Role} #{m.OrderNo} ({m.Strategy})
              </td>
              <td>{m.Channel}</td>
              <td>
                <strong className="hm-state">{m.State}</strong>
                {m.Reason !== undefined && <span className="hm-sub">{m.Reason}</span>}
                {m.DeliveryUncertain && <span className="hm-sub">delivery uncertain</span>}
              </td>
              <td className="num">{m.Attempts}</td>
              <td>
                {m.NextRetryTime !== undefined
                  ? `retry ${localTime(m.NextRetryTime)}`
                  : m.ReceiptDeadline !== undefined
                    ? `receipt by ${localTime(m.ReceiptDeadline)}`
                    : (m.LastError ?? '—')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
