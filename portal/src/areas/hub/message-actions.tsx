import { useId, useState } from 'react';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { useStatus } from '../../ui/status.tsx';
import { type ActionName, type Eligibilities, runAction } from './hub-msg-api.ts';

const ACTIONS: ReadonlyArray<{ action: ActionName; label: string; title: string; what: string; danger?: boolean }> = [
  {
    action: 'RETRY',
    label: 'Retry',
    title: 'Retry this message now?',
    what: 'Exactly one manual attempt goes to the receiver now (outside the automatic budget); if it fails, the failure is final.',
  },
  {
    action: 'CANCEL',
    label: 'Cancel',
    title: 'Cancel this message?',
    what: 'Its unsent work is dropped: it will not be sent. A candidate holding the fallback turn cancels its waiting candidates too.',
    danger: true,
  },
  {
    action: 'MANUAL_RECEIPT',
    label: 'Resolve outcome',
    title: 'Record the verified outcome?',
    what: 'The evidence you verified (with the receiver or the provider) settles the open attempt, like a receipt; a second one is refused.',
  },
];

/**
 * The operator actions the API offers on a message: each eligible one behind a confirmation that asks for
 * the reason the API records; an ineligible one is disabled with the API's reason beside it. `onDone` runs
 * after an action (the page reads the message and its timeline again).
 */
export function MessageActions(props: { messageId: string; eligibility: Eligibilities; onDone: () => void }) {
  const [open, setOpen] = useState<ActionName | null>(null);
  const hint = useId();
  return (
    <div className="hm-actions">
      <ul className="hm-action-list">
        {ACTIONS.map((a) => {
          const e = props.eligibility.Actions[a.action];
          const eligible = e?.Eligible === true;
          return (
            <li key={a.action}>
              <button
                type="button"
                className={a.danger ? 'button button-danger' : 'button'}
                disabled={!eligible}
                aria-describedby={eligible ? undefined : `${hint}-${a.action}`}
                onClick={() => setOpen(a.action)}
              >
                {a.label}
              </button>
              {!eligible && (
                <span id={`${hint}-${a.action}`} className="hm-why-not">
                  <code>{e?.Reason ?? 'NOT_OFFERED'}</code> {e?.Message}
                </span>
              )}
            </li>
          );
        })}
      </ul>
      {open !== null && (
        <ActionDialog
          key={open}
          messageId={props.messageId}
          spec={ACTIONS.find((a) => a.action === open)!}
          onClose={() => setOpen(null)}
          onDone={() => {
            setOpen(null);
            props.onDone();
          }}
        />
      )}
    </div>
  );
}

function ActionDialog(props: {
  messageId: string;
  spec: (typeof ACTIONS)[number];
  onClose: () => void;
  onDone: () => void;
}) {
  const id = useId();
  const notify = useStatus();
  // one key per confirmation: a click sent twice (or resent after a lost answer) does what the first did
  const [key] = useState(() => crypto.randomUUID());
  const [reason, setReason] = useState('');
  const [status, setStatus] = useState<'DELIVERED' | 'FAILED'>('DELIVERED');
  const [evidence, setEvidence] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const manual = props.spec.action === 'MANUAL_RECEIPT';
  const missing = reason.trim() === '';
  const confirm = async () => {
    if (missing) {
      setError(new Error(manual ? 'Say how the outcome was verified.' : 'Give the reason (it is recorded).'));
      document.getElementById(`${id}-reason`)?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await runAction(
        props.messageId,
        manual
          ? {
              action: 'MANUAL_RECEIPT',
              Status: status,
              VerificationReason: reason.trim(),
              ...(evidence.trim() !== '' && { EvidenceReference: evidence.trim() }),
            }
          : { action: props.spec.action as 'RETRY' | 'CANCEL', Reason: reason.trim() },
        key,
      );
      notify({ kind: 'success', text: `${props.spec.label}: done` });
      props.onDone();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog
      title={props.spec.title}
      confirmLabel={busy ? 'Working…' : props.spec.label}
      danger={props.spec.danger}
      busy={busy}
      onConfirm={() => void confirm()}
      onCancel={props.onClose}
    >
      <p>{props.spec.what}</p>
      {manual && (
        <div className="field">
          <label htmlFor={`${id}-status`} className="field-label">
            Verified outcome
          </label>
          <select
            id={`${id}-status`}
            className="input"
            value={status}
            onChange={(e) => setStatus(e.target.value as 'DELIVERED' | 'FAILED')}
          >
            <option value="DELIVERED">DELIVERED</option>
            <option value="FAILED">FAILED</option>
          </select>
        </div>
      )}
      <div className={error !== null && missing ? 'field field-invalid' : 'field'}>
        <label htmlFor={`${id}-reason`} className="field-label">
          {manual ? 'How it was verified' : 'Reason'}
          <span aria-hidden="true"> *</span>
        </label>
        <input
          id={`${id}-reason`}
          className="input"
          required
          aria-invalid={error !== null && missing ? true : undefined}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </div>
      {manual && (
        <div className="field">
          <label htmlFor={`${id}-evidence`} className="field-label">
            Evidence reference
          </label>
          <input
            id={`${id}-evidence`}
            className="input"
            value={evidence}
            onChange={(e) => setEvidence(e.target.value)}
          />
        </div>
      )}
      {error !== null && <ApiErrorView error={error} title={`${props.spec.label} refused`} />}
    </ConfirmDialog>
  );
}
