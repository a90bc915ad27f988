import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { useStatus } from '../../ui/status.tsx';
import { at, type ChannelQuietHours, type QuietHoursList } from './hub-policy-api.ts';
import { QuietHoursEditor, windowMeaning } from './quiet-hours-editor.tsx';
import './hub-policy.css';
import { ScrollRegion } from '../../ui/scroll-region.tsx';

const KEY = ['hub', 'quiet-hours'];
type Editing = { kind: 'none' } | { kind: 'new' } | { kind: 'channel'; hours: ChannelQuietHours };

/**
 * Every channel's daily quiet windows in the tenant's time zone: a message of a RESPECT definition due in
 * one waits (SCHEDULED, or its retry later) until the window ends. Edit a channel's windows, delete them.
 */
export function QuietHoursPage() {
  const client = useQueryClient();
  const notify = useStatus();
  const [editing, setEditing] = useState<Editing>({ kind: 'none' });
  const [removing, setRemoving] = useState<ChannelQuietHours | null>(null);
  const [removeError, setRemoveError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const list = useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) =>
      call(api.hub.GET('/comm/v1/quiet-hours', { signal })) as unknown as Promise<QuietHoursList>,
  });
  const refresh = () => client.invalidateQueries({ queryKey: KEY });
  const remove = async (h: ChannelQuietHours) => {
    setBusy(true);
    setRemoveError(null);
    try {
      await call(api.hub.DELETE('/comm/v1/quiet-hours/{channel}', { params: { path: { channel: h.Channel } } }));
      notify({ text: `Quiet hours of ${h.Channel} deleted` });
      setRemoving(null);
      if (editing.kind === 'channel' && editing.hours.Channel === h.Channel) setEditing({ kind: 'none' });
      void refresh();
    } catch (e) {
      setRemoveError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Page
      title="Quiet hours"
      lead="Daily windows per channel in which messages of RESPECT definitions are held: initial work waits SCHEDULED until the window ends, a retry later. End is excluded; Start after End runs overnight."
      actions={
        <button type="button" className="button button-primary" onClick={() => setEditing({ kind: 'new' })}>
          New quiet hours
        </button>
      }
    >
      {list.data !== undefined && (
        <p className="hp-note">
          Times are local to the tenant's time zone <strong>{list.data.TimeZone}</strong> (comm-hub.time-zone).
        </p>
      )}
      <section className="hp-section" aria-labelledby="hp-quiet-title">
        <h2 id="hp-quiet-title" className="visually-hidden">
          Channels with quiet hours
        </h2>
        {list.isPending && <p className="skeleton">Loading the quiet hours…</p>}
        {list.isError && <ApiErrorView error={list.error} onRetry={() => void list.refetch()} />}
        {list.data !== undefined && list.data.Items.length === 0 && (
          <p className="empty">No channel has quiet hours: messages go out at any time of day.</p>
        )}
        {list.data !== undefined && list.data.Items.length > 0 && (
          <ScrollRegion label="Quiet hours per channel">
            <table className="table">
              <caption className="visually-hidden">Quiet hours per channel</caption>
              <thead>
                <tr>
                  <th scope="col">Channel</th>
                  <th scope="col">Windows</th>
                  <th scope="col">Updated</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {list.data.Items.map((h) => (
                  <tr key={h.Channel}>
                    <th scope="row">{h.Channel}</th>
                    <td>
                      <ul className="hp-plain-list">
                        {h.Windows.map((w) => (
                          <li key={`${w.Start}-${w.End}`}>
                            {w.Start}–{w.End} <span className="hp-muted">({windowMeaning(w)})</span>
                          </li>
                        ))}
                      </ul>
                    </td>
                    <td>{at(h.UpdatedAt)}</td>
                    <td>
                      <span className="hp-row-actions">
                        <button
                          type="button"
                          className="button button-small"
                          onClick={() => setEditing({ kind: 'channel', hours: h })}
                        >
                          Edit {h.Channel}
                        </button>
                        <button
                          type="button"
                          className="button button-small"
                          onClick={() => {
                            setRemoveError(null);
                            setRemoving(h);
                          }}
                        >
                          Delete {h.Channel}
                        </button>
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </section>
      {editing.kind !== 'none' && (
        <section className="hp-section">
          <QuietHoursEditor
            key={editing.kind === 'channel' ? editing.hours.Channel : 'new'}
            {...(editing.kind === 'channel' && { existing: editing.hours })}
            onSaved={(saved) => {
              notify({ text: `Quiet hours of ${saved.Channel} saved` });
              setEditing({ kind: 'none' });
              void refresh();
            }}
            onCancel={() => setEditing({ kind: 'none' })}
          />
        </section>
      )}
      {removing !== null && (
        <ConfirmDialog
          title={`Delete the quiet hours of ${removing.Channel}?`}
          confirmLabel="Delete quiet hours"
          danger
          busy={busy}
          onConfirm={() => void remove(removing)}
          onCancel={() => setRemoving(null)}
        >
          <p>Messages on {removing.Channel} then go out at any time of day.</p>
          {removeError !== null && <ApiErrorView error={removeError} title="Not deleted" />}
        </ConfirmDialog>
      )}
    </Page>
  );
}
