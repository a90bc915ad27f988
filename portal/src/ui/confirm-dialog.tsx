import { type ReactNode, useEffect, useId, useRef } from 'react';

/**
 * A modal confirmation (the browser's <dialog>: focus moves in and stays in, Escape cancels, focus goes
 * back to where it was). Render it when a confirmation is pending; `onCancel` and `onConfirm` close it.
 *
 *   {pending && <ConfirmDialog title="Delete bus orders?" confirmLabel="Delete" danger onConfirm={…} onCancel={() => setPending(false)}>…</ConfirmDialog>}
 */
export function ConfirmDialog(props: {
  title: string;
  children?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    // the dialog leaves the page with its owner's render, so it gives the focus back itself
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    return () => {
      dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        props.onCancel();
      }}
    >
      <h2 id={titleId} className="dialog-title">
        {props.title}
      </h2>
      {props.children !== undefined && <div className="dialog-body">{props.children}</div>}
      <div className="dialog-actions">
        {/* biome-ignore lint/a11y/noAutofocus: an opened dialog moves the focus inside, onto its safe choice (WAI-ARIA dialog pattern) */}
        <button type="button" className="button" onClick={props.onCancel} autoFocus>
          {props.cancelLabel ?? 'Cancel'}
        </button>
        <button
          type="button"
          className={props.danger ? 'button button-danger' : 'button button-primary'}
          onClick={props.onConfirm}
          disabled={props.busy}
        >
          {props.confirmLabel ?? 'Confirm'}
        </button>
      </div>
    </dialog>
  );
}
