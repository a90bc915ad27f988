import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { Form, SelectField, TextField, useApiForm } from '../../ui/form.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { useStatus } from '../../ui/status.tsx';
import { ADMIN, type Source } from './bridge-api.ts';
import { updateCachedLists, upsert } from './list-cache.ts';

type SourceValues = { name: string; kind: string; eventTypes: string; schemaId: string };
const EMPTY: SourceValues = { name: '', kind: 'sdk', eventTypes: '', schemaId: '' };

/**
 * A bus's event sources with their event types. Registering a source again replaces it (the API's PUT):
 * that is the edit. The API has no removal of a source, so none is offered.
 */
export function SourcesSection(props: { bus: string; canChange: boolean }) {
  const [editing, setEditing] = useState<SourceValues | null>(null);
  return (
    <section className="section" aria-labelledby="sources-title">
      <div className="section-head">
        <h2 id="sources-title">Event sources</h2>
        {props.canChange && editing === null && (
          <button type="button" className="button" onClick={() => setEditing(EMPTY)}>
            Register source
          </button>
        )}
      </div>
      {editing !== null && (
        <SourceForm key={editing.name} bus={props.bus} initial={editing} onDone={() => setEditing(null)} />
      )}
      <PagedTable<Source>
        caption={`Event sources of ${props.bus}`}
        captionHidden
        queryKey={['bridge', 'sources', props.bus]}
        paging="none"
        fetchPage={async (_r, signal) => ({
          items:
            (
              await call(
                api.bridge.GET(`${ADMIN}/buses/{bus}/sources`, { params: { path: { bus: props.bus } }, signal }),
              )
            ).items ?? [],
        })}
        rowKey={(s) => s.name ?? ''}
        columns={[
          { key: 'name', header: 'Source', rowHeader: true, cell: (s) => <code className="nowrap">{s.name}</code> },
          { key: 'kind', header: 'Kind', cell: (s) => s.kind },
          {
            key: 'types',
            header: 'Event types',
            cell: (s) =>
              (s.eventTypes ?? []).length === 0 ? (
                <span className="check-muted">any</span>
              ) : (
                <ul className="plain-list">
                  {(s.eventTypes ?? []).map((t) => (
                    <li key={t}>
                      <code>{t}</code>
                    </li>
                  ))}
                </ul>
              ),
          },
          { key: 'schema', header: 'Schema', cell: (s) => s.schemaId ?? '' },
          ...(props.canChange
            ? [
                {
                  key: 'edit',
                  header: 'Actions',
                  cell: (s: Source) => (
                    <button
                      type="button"
                      className="button button-small"
                      onClick={() =>
                        setEditing({
                          name: s.name ?? '',
                          kind: s.kind ?? 'sdk',
                          eventTypes: (s.eventTypes ?? []).join('\n'),
                          schemaId: s.schemaId ?? '',
                        })
                      }
                    >
                      Edit {s.name}
                    </button>
                  ),
                },
              ]
            : []),
        ]}
        empty="No event sources registered yet."
      />
    </section>
  );
}

function SourceForm(props: { bus: string; initial: SourceValues; onDone: () => void }) {
  const queryClient = useQueryClient();
  const notify = useStatus();
  const isNew = props.initial.name === '';
  const form = useApiForm({
    initial: props.initial,
    submit: (v) =>
      call(
        api.bridge.PUT(`${ADMIN}/buses/{bus}/sources/{source}`, {
          params: { path: { bus: props.bus, source: v.name } },
          body: {
            kind: v.kind as 'sdk',
            eventTypes: v.eventTypes
              .split(/[\n,]/)
              .map((t) => t.trim())
              .filter((t) => t !== ''),
            ...(v.schemaId.trim() !== '' && { schemaId: v.schemaId.trim() }),
          },
        }),
      ),
    onSuccess: async (s) => {
      notify({ kind: 'success', text: `Source ${s.name} saved` });
      updateCachedLists<Source>(
        queryClient,
        ['bridge', 'sources', props.bus],
        upsert(s, (x) => x.name),
      );
      props.onDone();
    },
  });
  return (
    <div className="panel">
      <h3 className="panel-title">{isNew ? 'Register an event source' : `Edit source ${props.initial.name}`}</h3>
      <Form
        form={form}
        submitLabel={isNew ? 'Register source' : 'Save source'}
        actions={
          <button type="button" className="button" onClick={props.onDone}>
            Cancel
          </button>
        }
      >
        {isNew ? <TextField form={form} name="name" label="Source name" required hint="e.g. shop:orders" /> : null}
        <SelectField
          form={form}
          name="kind"
          label="Kind"
          options={[
            { value: 'sdk', label: 'SDK' },
            { value: 'webhook', label: 'Webhook' },
            { value: 'platform', label: 'Platform' },
          ]}
        />
        <TextField
          form={form}
          name="eventTypes"
          label="Event types"
          multiline
          hint="One per line (or comma-separated); none: any type."
        />
        <TextField
          form={form}
          name="schemaId"
          label="Schema id"
          hint="Optional: the schema events are checked against."
        />
      </Form>
    </div>
  );
}
