import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { CheckboxField, Form, TextField, useApiForm } from '../../ui/form.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { useStatus } from '../../ui/status.tsx';
import { at, type Channel, hubPaging, SETUP_KEY, untilListed } from './hub-setup-api.ts';
import './hub-setup.css';

const CHANNELS_KEY = [...SETUP_KEY, 'channels'];

const listed = async (code: string, present: (c: Channel | undefined) => boolean) => {
  const page = (await call(
    api.hub.GET('/comm/v1/channels', { params: { query: { pageNo: 1, pageSize: 200 } } }),
  )) as unknown as { Items: Channel[] };
  return present(page.Items.find((c) => c.Code === code));
};

/**
 * The tenant's channel codes (the code table CommHubChannel): listed, added, enabled or disabled, deleted
 * behind a confirmation. A disabled channel stops sends and previews on it.
 */
export function ChannelsPage() {
  const client = useQueryClient();
  const notify = useStatus();
  const [deleting, setDeleting] = useState<Channel | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: CHANNELS_KEY });
  const form = useApiForm({
    initial: { Code: '', Description: '', Enabled: true },
    submit: (v) =>
      call(
        api.hub.POST('/comm/v1/channels', {
          body: { Code: v.Code, ...(v.Description !== '' && { Description: v.Description }), Enabled: v.Enabled },
        }),
      ),
    onSuccess: async (_r, v) => {
      notify({ text: `Channel ${v.Code} added` });
      form.reset();
      await untilListed(() => listed(v.Code, (c) => c !== undefined));
      void refresh();
    },
  });
  const toggle = async (c: Channel) => {
    setBusy(c.Code);
    setActionError(null);
    try {
      await call(
        api.hub.PUT('/comm/v1/channels/{code}', {
          params: { path: { code: c.Code } },
          body: { ...(c.Description !== undefined && { Description: c.Description }), Enabled: !c.Enabled },
        }),
      );
      notify({ text: `Channel ${c.Code} ${c.Enabled ? 'disabled' : 'enabled'}` });
      await untilListed(() => listed(c.Code, (x) => x?.Enabled === !c.Enabled));
      void refresh();
    } catch (e) {
      setActionError(e);
    } finally {
      setBusy(null);
    }
  };
  const remove = async (c: Channel) => {
    setBusy(c.Code);
    setActionError(null);
    try {
      await call(api.hub.DELETE('/comm/v1/channels/{code}', { params: { path: { code: c.Code } } }));
      notify({ text: `Channel ${c.Code} deleted` });
      setDeleting(null);
      await untilListed(() => listed(c.Code, (x) => x === undefined));
      void refresh();
    } catch (e) {
      setActionError(e);
    } finally {
      setBusy(null);
    }
  };
  return (
    <Page
      title="Channels"
      lead="The channel codes messages go out on (EMAIL, SMS…). Delivery services, templates and rules name one; a disabled channel takes no sends."
    >
      <section className="hs-section" aria-labelledby="hs-channels-title">
        <h2 id="hs-channels-title">Channel codes</h2>
        {actionError !== null && deleting === null && <ApiErrorView error={actionError} title="Not changed" />}
        <PagedTable<Channel>
          caption="Channels"
          captionHidden
          queryKey={[...CHANNELS_KEY, 'list']}
          fetchPage={async ({ offset, limit }, signal) => {
            const page = (await call(
              api.hub.GET('/comm/v1/channels', { params: { query: hubPaging(offset, limit) }, signal }),
            )) as unknown as { Items: Channel[]; Total: number };
            return { items: page.Items, total: page.Total };
          }}
          rowKey={(c) => c.Code}
          columns={[
            { key: 'code', header: 'Code', rowHeader: true, cell: (c) => <code className="hs-code">{c.Code}</code> },
            { key: 'description', header: 'Description', cell: (c) => c.Description ?? '' },
            {
              key: 'enabled',
              header: 'Status',
              cell: (c) => (
                <span className={c.Enabled ? 'pill pill-good' : 'pill pill-bad'}>
                  {c.Enabled ? 'Enabled' : 'Disabled'}
                </span>
              ),
            },
            { key: 'updated', header: 'Updated', cell: (c) => at(c.UpdatedAt) },
            {
              key: 'act',
              header: 'Actions',
              cell: (c) => (
                <span className="hs-row-actions">
                  <button
                    type="button"
                    className="button button-small"
                    disabled={busy === c.Code}
                    onClick={() => void toggle(c)}
                  >
                    {c.Enabled ? 'Disable' : 'Enable'} {c.Code}
                  </button>
                  <button
                    type="button"
                    className="button button-small"
                    disabled={busy === c.Code}
                    onClick={() => {
                      setActionError(null);
                      setDeleting(c);
                    }}
                  >
                    Delete {c.Code}
                  </button>
                </span>
              ),
            },
          ]}
          empty="No channel yet: add one (EMAIL) before creating delivery services and templates."
        />
      </section>
      <section className="hs-section" aria-labelledby="hs-channel-add-title">
        <h2 id="hs-channel-add-title">Add a channel</h2>
        <Form form={form} submitLabel="Add channel" className="form hs-inline-form">
          <TextField
            form={form}
            name="Code"
            label="Code"
            hint="Upper case letters, digits and _ (EMAIL, SMS, PUSH)"
            required
          />
          <TextField form={form} name="Description" label="Description" />
          <CheckboxField form={form} name="Enabled" label="Enabled" hint="A disabled channel takes no sends" />
        </Form>
      </section>
      {deleting !== null && (
        <ConfirmDialog
          title={`Delete the channel ${deleting.Code}?`}
          confirmLabel="Delete channel"
          danger
          busy={busy === deleting.Code}
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        >
          <p>
            Services, templates and rules that name {deleting.Code} stay, but no new send goes out on it. Accepted
            notifications keep their snapshot.
          </p>
          {actionError !== null && <ApiErrorView error={actionError} title="Not deleted" />}
        </ConfirmDialog>
      )}
    </Page>
  );
}
