import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Form, SelectField, TextField, useApiForm } from '../../ui/form.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { useStatus } from '../../ui/status.tsx';
import { CapUsagePanel } from './cap-usage.tsx';
import { ANY_CLASS, at, classLabel, type FrequencyCap, readableCap } from './hub-policy-api.ts';
import './hub-policy.css';

const UNITS = [
  { value: '60', label: 'minutes' },
  { value: '3600', label: 'hours' },
  { value: '86400', label: 'days' },
  { value: '604800', label: 'weeks' },
  { value: '1', label: 'seconds' },
];
const CAPS_KEY = ['hub', 'frequency-caps'];

/** a number where the text is one; else the text itself, so the API names the field it refuses */
const numberOr = (text: string): number | string => (/^\s*\d+\s*$/.test(text) ? Number(text) : text);

/** a stored window in the largest listed unit that divides it */
function windowParts(seconds: number): { WindowSeconds: string; WindowUnit: string } {
  const unit = ['604800', '86400', '3600', '60'].find((u) => seconds % Number(u) === 0) ?? '1';
  return { WindowSeconds: String(seconds / Number(unit)), WindowUnit: unit };
}

/**
 * The tenant's frequency caps (per NotificationClass, or `*` for the rest): listed readably, set, removed
 * behind a confirmation; and a recipient's usage against each cap.
 */
export function CapsPage() {
  const client = useQueryClient();
  const notify = useStatus();
  const [removing, setRemoving] = useState<FrequencyCap | null>(null);
  const [removeError, setRemoveError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const refresh = () => client.invalidateQueries({ queryKey: CAPS_KEY });
  const form = useApiForm({
    initial: { category: ANY_CLASS, Limit: '', WindowSeconds: '1', WindowUnit: '86400' },
    submit: (v) => {
      const amount = numberOr(v.WindowSeconds);
      return call(
        api.hub.PUT('/comm/v1/frequency-caps/{category}', {
          params: { path: { category: v.category } },
          body: {
            Limit: numberOr(v.Limit) as number,
            WindowSeconds: (typeof amount === 'number' ? amount * Number(v.WindowUnit) : amount) as number,
          },
        }),
      ) as unknown as Promise<FrequencyCap>;
    },
    onSuccess: (cap) => {
      notify({ text: `Cap of ${classLabel(cap.Category)} set: ${readableCap(cap)}` });
      void refresh();
    },
  });
  const edit = (c: FrequencyCap) => {
    form.reset({ category: c.Category, Limit: String(c.Limit), ...windowParts(c.WindowSeconds) });
    setTimeout(() => document.getElementById(form.ids('Limit').input)?.focus(), 0);
  };
  const remove = async (c: FrequencyCap) => {
    setBusy(true);
    setRemoveError(null);
    try {
      await call(api.hub.DELETE('/comm/v1/frequency-caps/{category}', { params: { path: { category: c.Category } } }));
      notify({ text: `Cap of ${classLabel(c.Category)} removed` });
      setRemoving(null);
      void refresh();
    } catch (e) {
      setRemoveError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Page
      title="Frequency caps"
      lead="How many messages a recipient may receive in a sliding window, across all channels: a class's own cap, else the * cap (which also bounds every class without its own)."
    >
      <section className="hp-section" aria-labelledby="hp-caps-title">
        <h2 id="hp-caps-title">Caps</h2>
        <PagedTable<FrequencyCap>
          caption="Frequency caps"
          captionHidden
          paging="none"
          queryKey={[...CAPS_KEY, 'list']}
          fetchPage={async (_r, signal) => {
            const page = (await call(api.hub.GET('/comm/v1/frequency-caps', { signal }))) as unknown as {
              Items: FrequencyCap[];
            };
            return { items: page.Items, total: page.Items.length };
          }}
          rowKey={(c) => c.Category}
          columns={[
            { key: 'category', header: 'Category', rowHeader: true, cell: (c) => classLabel(c.Category) },
            { key: 'cap', header: 'Cap', cell: (c) => readableCap(c) },
            { key: 'at', header: 'Updated', cell: (c) => at(c.UpdatedAt) },
            {
              key: 'act',
              header: 'Actions',
              cell: (c) => (
                <span className="hp-row-actions">
                  <button type="button" className="button button-small" onClick={() => edit(c)}>
                    Edit {c.Category}
                  </button>
                  <button
                    type="button"
                    className="button button-small"
                    onClick={() => {
                      setRemoveError(null);
                      setRemoving(c);
                    }}
                  >
                    Delete {c.Category}
                  </button>
                </span>
              ),
            },
          ]}
          empty="No frequency cap: nothing is counted and no recipient identity is needed."
        />
      </section>
      <section className="hp-section" aria-labelledby="hp-cap-set-title">
        <h2 id="hp-cap-set-title">Set a cap</h2>
        <Form form={form} submitLabel="Save cap" className="form hp-inline-form">
          <TextField
            form={form}
            name="category"
            label="Category"
            hint="A NotificationClass (MARKETING), or * for the rest"
            required
          />
          <TextField form={form} name="Limit" label="Limit (messages)" hint="0 to 100000; 0 stops them" required />
          <TextField
            form={form}
            name="WindowSeconds"
            label="Window length"
            hint="A sliding window, up to 366 days"
            required
          />
          <SelectField form={form} name="WindowUnit" label="Window unit" options={UNITS} />
        </Form>
      </section>
      <CapUsagePanel />
      {removing !== null && (
        <ConfirmDialog
          title={`Delete the cap of ${classLabel(removing.Category)}?`}
          confirmLabel="Delete cap"
          danger
          busy={busy}
          onConfirm={() => void remove(removing)}
          onCancel={() => setRemoving(null)}
        >
          <p>
            {readableCap(removing)} no longer applies; messages of this category count against the * cap, if one
            remains.
          </p>
          {removeError !== null && <ApiErrorView error={removeError} title="Not deleted" />}
        </ConfirmDialog>
      )}
    </Page>
  );
}
