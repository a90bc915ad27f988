import type { ReactNode } from 'react';
import { ScrollRegion } from '../../ui/scroll-region.tsx';
import type { TimelineEvent } from './hub-msg-api.ts';

/** the API's tenant-local time (`2026-12-02T15:04:05.123`) as one reads it: date and time to the second */
export function localTime(at: string | undefined): string {
  if (at === undefined || at === '') return '—';
  return at.replace('T', ' ').replace(/\.\d+/, '');
}

const str = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : String(v));

/** what the event's kind means for the message, in a few words (the heading of its row) */
const TITLES: Record<string, string> = {
  MessagePrepared: 'Prepared at acceptance',
  AttemptStarted: 'Attempt started',
  MessageAccepted: 'Accepted by the receiver',
  MessageDelivered: 'Delivered',
  MessageFailed: 'Failed',
  MessageUncertain: 'Outcome uncertain',
  AttemptObserved: 'Late answer recorded',
  ReceiptIgnored: 'Receipt ignored',
  MessagePromoted: 'Promoted (fallback turn)',
  MessageSuppressed: 'Skipped (suppressed)',
  MessageExpired: 'Expired',
  MessageDeferred: 'Held (quiet hours)',
  AlertRaised: 'Alert raised',
  MessageCancelled: 'Cancelled by an operator',
  NotificationHousekept: 'Housekept',
};

/** where the evidence came from */
const SOURCES: Record<string, string> = {
  RESPONSE: "the receiver's answer",
  RECEIPT: 'a receipt',
  MANUAL: "an operator's verified evidence",
};

/** the event's facts in a sentence or two: why it was held, skipped or fell back, what the receiver said */
export function describe(e: TimelineEvent): ReactNode {
  const d = e.Data;
  const http = str(d.HttpStatus) !== undefined ? ` (HTTP ${str(d.HttpStatus)})` : '';
  const source = str(d.Source) !== undefined ? ` from ${SOURCES[String(d.Source)] ?? String(d.Source)}` : '';
  const verification = d.Verification as { VerificationReason?: string; EvidenceReference?: string } | undefined;
  const verified =
    verification !== undefined
      ? ` Verified: ${verification.VerificationReason ?? ''}${verification.EvidenceReference ? ` (evidence ${verification.EvidenceReference})` : ''}.`
      : '';
  switch (e.Type) {
    case 'MessagePrepared': {
      const diagnostics = (d.Diagnostics as string[] | undefined) ?? [];
      return (
        <>
          Planned as <strong>{str(d.State)}</strong>
          {d.Reason !== undefined && <> because {str(d.Reason)}</>}.
          {diagnostics.length > 0 && <> Diagnostics: {diagnostics.join('; ')}.</>}
        </>
      );
    }
    case 'AttemptStarted':
      return (
        <>
          Attempt {str(d.AttemptNo)} ({str(d.Kind)}) through <code>{str(d.ServiceId)}</code>
          {d.OutcomeDueBy !== undefined && <>, outcome due by {localTime(str(d.OutcomeDueBy))}</>}
          {d.Reason !== undefined && <>; reason: {str(d.Reason)}</>}.
        </>
      );
    case 'MessageAccepted':
      return (
        <>
          Accepted{source}
          {http}
          {d.TrackingCompleted === true
            ? '; nothing more is tracked (acceptance only).'
            : d.ReceiptDeadline !== undefined
              ? `; the final receipt is awaited until ${localTime(str(d.ReceiptDeadline))}.`
              : '.'}
        </>
      );
    case 'MessageDelivered':
      return (
        <>
          Delivered{source}
          {d.ProviderRef !== undefined && <>, provider reference {str(d.ProviderRef)}</>}.{verified}
        </>
      );
    case 'MessageFailed':
      return (
        <>
          {d.Definite === 'RETRYABLE' ? 'Retryable' : 'Permanent'} failure{source}
          {http}: {str(d.Error)}.{' '}
          {d.NextRetryTime !== undefined
            ? `Next retry at ${localTime(str(d.NextRetryTime))}.`
            : d.Final === true
              ? 'Final: no retry left, the next fallback candidate (if any) takes the turn.'
              : ''}
          {verified}
        </>
      );
    case 'MessageUncertain':
      return (
        <>
          The outcome is unknown ({str(d.Cause)}
          {http}){d.Error !== undefined && <>: {str(d.Error)}</>}. Retry and fallback are held until an operator records
          the verified outcome.
        </>
      );
    case 'AttemptObserved':
      return (
        <>
          A late answer ({str(d.Outcome)}
          {http}) for an attempt already settled: recorded, nothing changed.
        </>
      );
    case 'ReceiptIgnored':
      return (
        <>
          A {str(d.Status)} receipt was not applied: {str(d.Reason)}.
        </>
      );
    case 'MessagePromoted':
      return (
        <>
          The previous candidate ({str(d.After)}) ended without delivery: this message takes the turn as {str(d.State)},
          due {localTime(str(d.DueAt))}.
        </>
      );
    case 'MessageSuppressed':
      return (
        <>
          Not sent: {str(d.Reason)}
          {d.Note !== undefined && <> ({str(d.Note)})</>}.
        </>
      );
    case 'MessageExpired':
      return <>Its ExpiresAt passed before it could be delivered.</>;
    case 'MessageDeferred':
      return (
        <>
          Held by {str(d.Reason) === 'QUIET_HOURS' ? 'quiet hours' : str(d.Reason)}: the{' '}
          {d.Work === 'retry' ? 'retry' : 'dispatch'} waits until {localTime(str(d.Until))}.
        </>
      );
    case 'AlertRaised':
      return (
        <>
          {d.Classification === 'UNCERTAIN' ? 'Uncertain delivery' : 'Dead letter (definite final failure)'}:{' '}
          {str(d.Reason)}.
        </>
      );
    case 'MessageCancelled':
      return <>Reason: {str(d.Reason)}.</>;
    default:
      return <code className="hm-raw">{JSON.stringify(d)}</code>;
  }
}

/** the tone of an event's mark: what it means for the message */
function tone(type: string): string {
  if (type === 'MessageDelivered') return 'hm-ok';
  if (['MessageFailed', 'MessageExpired', 'AlertRaised'].includes(type)) return 'hm-bad';
  if (['MessageUncertain', 'MessageDeferred', 'MessageSuppressed', 'ReceiptIgnored'].includes(type)) return 'hm-warn';
  return 'hm-neutral';
}

/** the message's append-only events, oldest first, each readable with its time and actor */
export function MessageTimeline({ events }: { events: readonly TimelineEvent[] }) {
  if (events.length === 0) return <p className="empty">No event yet.</p>;
  return (
    <ScrollRegion label="Message timeline">
      <table className="table hm-timeline">
        <caption className="visually-hidden">Message timeline, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Event</th>
            <th scope="col">What happened</th>
            <th scope="col">By</th>
          </tr>
        </thead>
        <tbody>
          {events.map((e) => (
            <tr key={`${e.Revision}-${e.Type}`} data-type={e.Type}>
              <td className="nowrap">{localTime(e.At)}</td>
              <th scope="row">
                <span className={`hm-mark ${tone(e.Type)}`}>{TITLES[e.Type] ?? e.Type}</span>
                <span className="hm-type">{e.Type}</span>
              </th>
              <td>{describe(e)}</td>
              <td>{e.Actor ?? 'the hub'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
