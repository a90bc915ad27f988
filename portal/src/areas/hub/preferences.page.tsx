import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { type FormEvent, useId, useState } from 'react';
import { api, call } from '../../api/client.ts';
import { refetchUntilShown } from '../../api/read-after-write.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Form, SelectField, TextField, useApiForm } from '../../ui/form.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import type { PageResult } from '../../ui/paging.ts';
import { useStatus } from '../../ui/status.tsx';
import { ANY_CLASS, at, CODE_HINT, classLabel, type Decision, type Preference } from './hub-policy-api.ts';
import { effectivePrefix, PreferenceEffective } from './preference-effective.tsx';
import './hub-policy.css';

const DECISIONS = [
  { value: 'DENY', label: 'DENY (opted out)' },
  { value: 'ALLOW', label: 'ALLOW (opted in)' },
];

/**
 * A recipient's preferences (the RecipientId of the URL's search): the stored ones with their removal,
 * setting one, and what the dispatch gate answers now for a channel and class.
 */
export function PreferencesPage() {
  const search = useSearch({ strict: false }) as { RecipientId?: unknown };
  const recipientId = search.RecipientId === undefined ? '' : String(search.RecipientId);
  const navigate = useNavigate();
  const lookup = (id: string) =>
    void navigate({
      search: ((prev: Record<string, unknown>) => ({ ...prev, RecipientId: id === '' ? undefined : id })) as never,
    });
  return (
    <Page
      title="Customer preferences"
      lead="A recipient's consent per channel and notification class (ALLOW or DENY); the dispatch gate reads it live at every attempt of a RESPECT message."
    >
      <RecipientLookup key={recipientId} initial={recipientId} onLookup={lookup} />
      {recipientId === '' ? (
        <p className="empty">Enter a recipient ID (the RecipientId of the send requests) to see their preferences.</p>
      ) : (
        <RecipientPreferences key={recipientId} recipientId={recipientId} />
      )}
    </Page>
  );
}

function RecipientLookup(props: { initial: string; onLookup: (id: string) => void }) {
  const id = useId();
  const [value, setValue] = useState(props.initial);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onLookup(value.trim());
  };
  return (
    <form className="form hp-inline-form" onSubmit={submit} aria-label="Look up a recipient">
      <div className="field">
        <label htmlFor={`${id}-rid`} className="field-label">
          Recipient ID
        </label>
        <input id={`${id}-rid`} className="input" value={value} onChange={(e) => setValue(e.target.value)} />
      </div>
      <div className="form-actions">
        <button type="submit" className="button button-primary">
          Look up
        </button>
      </div>
    </form>
  );
}

function RecipientPreferences({ recipientId }: { recipientId: string }) {
  const client = useQueryClient();
  const notify = useStatus();
  const [removing, setRemoving] = useState<Preference | null>(null);
  const [removeError, setRemoveError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const storedKey = ['hub', 'preferences', recipientId, 'stored'];
  // the gate's answer is live; the stored list comes from a read model and is refetched until it shows the write
  const refresh = (shows: (items: Preference[]) => boolean) => {
    void client.invalidateQueries({ queryKey: effectivePrefix(recipientId) });
    void refetchUntilShown<PageResult<Preference>>(client, storedKey, (page) => shows(page.items));
  };
  const same = (p: Preference, channel: string, cls: string) => p.Channel === channel && p.NotificationClass === cls;
  const form = useApiForm({
    initial: { Channel: '', NotificationClass: ANY_CLASS, Decision: 'DENY' },
    submit: (v) =>
      call(
        api.hub.PUT('/comm/v1/preferences', {
          body: {
            RecipientId: recipientId,
            Channel: v.Channel,
            NotificationClass: v.NotificationClass || ANY_CLASS,
            Decision: v.Decision as Decision,
          },
        }),
      ),
    onSuccess: (_r, v) => {
      const cls = v.NotificationClass || ANY_CLASS;
      notify({ text: `${v.Decision} set on ${v.Channel}, ${classLabel(cls)}` });
      refresh((items) => items.some((p) => same(p, v.Channel, cls) && p.Decision === v.Decision));
    },
  });
  const remove = async (p: Preference) => {
    setBusy(true);
    setRemoveError(null);
    try {
      await call(
        api.hub.DELETE('/comm/v1/preferences', {
          params: {
            query: { recipientId, channel: p.Channel, notificationClass: p.NotificationClass },
          },
        }),
      );
      notify({ text: `Preference on ${p.Channel}, ${classLabel(p.NotificationClass)} removed: the default applies` });
      setRemoving(null);
      refresh((items) => !items.some((x) => same(x, p.Channel, p.NotificationClass)));
    } catch (e) {
      setRemoveError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <section className="hp-section" aria-labelledby="hp-stored-title">
        <h2 id="hp-stored-title">Stored preferences of {recipientId}</h2>
        <PagedTable<Preference>
          caption={`Preferences of ${recipientId}`}
          captionHidden
          paging="none"
          queryKey={storedKey}
          fetchPage={async (_r, signal) => {
            const page = (await call(
              api.hub.GET('/comm/v1/preferences', { params: { query: { recipientId } }, signal }),
            )) as unknown as { Items: Preference[] };
            return { items: page.Items, total: page.Items.length };
          }}
          rowKey={(p) => `${p.Channel}.${p.NotificationClass}`}
          columns={[
            { key: 'channel', header: 'Channel', rowHeader: true, cell: (p) => p.Channel },
            { key: 'class', header: 'Class', cell: (p) => classLabel(p.NotificationClass) },
            {
              key: 'decision',
              header: 'Decision',
              cell: (p) => (
                <span className={p.Decision === 'ALLOW' ? 'pill pill-good' : 'pill pill-bad'}>{p.Decision}</span>
              ),
            },
            {
              key: 'source',
              header: 'Set by',
              cell: (p) => (p.Source === 'INTERACTION' ? `interaction ${p.InteractionId ?? ''}` : 'the API'),
            },
            { key: 'at', header: 'Updated', cell: (p) => at(p.UpdatedAt) },
            {
              key: 'act',
              header: 'Actions',
              cell: (p) => (
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => {
                    setRemoveError(null);
                    setRemoving(p);
                  }}
                >
                  Remove {p.Channel} {p.NotificationClass}
                </button>
              ),
            },
          ]}
          empty="No stored preference: the gate answers the tenant default on every channel."
        />
      </section>
      <section className="hp-section" aria-labelledby="hp-set-title">
        <h2 id="hp-set-title">Set a preference</h2>
        <Form form={form} submitLabel="Set preference" className="form hp-inline-form">
          <TextField form={form} name="Channel" label="Channel" hint={CODE_HINT} required />
          <TextField
            form={form}
            name="NotificationClass"
            label="Notification class"
            hint="A class, or * for every class of the channel"
          />
          <SelectField form={form} name="Decision" label="Decision" options={DECISIONS} required />
        </Form>
      </section>
      <PreferenceEffective recipientId={recipientId} />
      {removing !== null && (
        <ConfirmDialog
          title={`Remove the preference on ${removing.Channel}, ${classLabel(removing.NotificationClass)}?`}
          confirmLabel="Remove preference"
          danger
          busy={busy}
          onConfirm={() => void remove(removing)}
          onCancel={() => setRemoving(null)}
        >
          <p>
            {recipientId}'s {removing.Decision} is removed; the gate then reads the channel's other preference or the
            tenant default again.
          </p>
          {removeError !== null && <ApiErrorView error={removeError} title="Not removed" />}
        </ConfirmDialog>
      )}
    </>
  );
}
