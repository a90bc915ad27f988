import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { at, hubPaging, SETUP_KEY, type Template } from './hub-setup-api.ts';
import './hub-setup.css';

/** The tenant's templates, one per code, channel and exact language; filtered by code. */
export function TemplatesPage() {
  const [typed, setTyped] = useState('');
  const [code, setCode] = useState('');
  const filter = (e: FormEvent) => {
    e.preventDefault();
    setCode(typed.trim());
  };
  return (
    <Page
      title="Templates"
      lead="The subject and body a message is rendered from, one per code, channel and exact language; delivery rules name the code."
      actions={
        <Link to="/hub/templates/new" className="button button-primary">
          Create template
        </Link>
      }
    >
      <form className="hs-filter" aria-label="Filter templates" onSubmit={filter}>
        <div className="field">
          <label className="field-label" htmlFor="hs-template-code">
            Template code
          </label>
          <input id="hs-template-code" className="input" value={typed} onChange={(e) => setTyped(e.target.value)} />
        </div>
        <button type="submit" className="button">
          Filter
        </button>
        {code !== '' && (
          <button
            type="button"
            className="button"
            onClick={() => {
              setTyped('');
              setCode('');
            }}
          >
            Show all
          </button>
        )}
      </form>
      <PagedTable<Template>
        caption={code === '' ? 'Templates' : `Templates of ${code}`}
        captionHidden
        queryKey={[...SETUP_KEY, 'templates', 'list', code]}
        fetchPage={async ({ offset, limit }, signal) => {
          const page = (await call(
            api.hub.GET('/comm/v1/templates', {
              params: { query: { ...hubPaging(offset, limit), ...(code !== '' && { code }) } },
              signal,
            }),
          )) as unknown as { Items: Template[]; Total: number };
          return { items: page.Items, total: page.Total };
        }}
        rowKey={(t) => t.TemplateId}
        columns={[
          {
            key: 'id',
            header: 'Template',
            rowHeader: true,
            cell: (t) => (
              <Link to="/hub/templates/$id" params={{ id: t.TemplateId }}>
                {t.TemplateId}
              </Link>
            ),
          },
          { key: 'channel', header: 'Channel', cell: (t) => t.Channel },
          { key: 'language', header: 'Language', cell: (t) => t.LanguageId },
          { key: 'type', header: 'Content', cell: (t) => t.ContentType },
          { key: 'status', header: 'Status', cell: (t) => t.Status },
          { key: 'updated', header: 'Updated', cell: (t) => at(t.UpdatedAt) },
        ]}
        empty={code === '' ? 'No template yet.' : `No template with the code ${code}.`}
      />
    </Page>
  );
}
