import { Link } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { type ContextDefinition, type HubPage, typed, when } from './hub-defs-api.ts';
import './hub-defs.css';

/** The tenant's context definitions, a page at a time (the API's pageNo/pageSize), and a new one. */
export function ContextDefinitionsPage() {
  return (
    <Page
      title="Context definitions"
      lead="Aliases into a send's payload, the variables templates and conditions read, and the fields masked wherever the payload is shown."
      actions={
        <Link to="/hub/context-definitions/$id" params={{ id: 'new' }} className="button button-primary hd-link-button">
          New context definition
        </Link>
      }
    >
      <PagedTable<ContextDefinition>
        caption="Context definitions"
        captionHidden
        queryKey={['hub', 'contexts']}
        fetchPage={async ({ offset, limit }, signal) => {
          const page = await typed<HubPage<ContextDefinition>>(
            call(
              api.hub.GET('/comm/v1/context-definitions', {
                params: { query: { pageNo: Math.floor(offset / limit) + 1, pageSize: limit } },
                signal,
              }),
            ),
          );
          return { items: page.Items, total: page.Total };
        }}
        rowKey={(c) => c.ContextDefinitionId}
        columns={[
          {
            key: 'id',
            header: 'Id',
            rowHeader: true,
            cell: (c) => (
              <Link to="/hub/context-definitions/$id" params={{ id: c.ContextDefinitionId }}>
                {c.ContextDefinitionId}
              </Link>
            ),
          },
          { key: 'name', header: 'Name', cell: (c) => c.Name ?? '' },
          { key: 'aliases', header: 'Aliases', cell: (c) => Object.keys(c.Contexts).join(', ') },
          { key: 'variables', header: 'Variables', cell: (c) => Object.keys(c.Variables).length },
          { key: 'sensitive', header: 'Sensitive fields', cell: (c) => c.SensitiveFields.length },
          { key: 'updated', header: 'Updated', cell: (c) => when(c.UpdatedAt) },
        ]}
        empty="No context definitions yet."
      />
    </Page>
  );
}
