import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { WORKFLOW_ADMIN_SCOPE } from '../../../../domain/workflow/workflow.scopes.ts';
import { hasScopes, sessionQuery } from '../../api/session.ts';
import { Page } from '../../shell/page.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { DeployPanel } from './deploy-panel.tsx';
import { type Definition, listDefinitions } from './workflow-api.ts';
import './workflow.css';

/** The tenant's process definitions with every version (the API answers the whole list), and deployment. */
export function DefinitionsPage() {
  const session = useQuery(sessionQuery).data;
  return (
    <Page title="Process definitions" lead="Each key with its versions; a version's page draws its diagram.">
      {hasScopes(session, [WORKFLOW_ADMIN_SCOPE]) && <DeployPanel />}
      <PagedTable<Definition>
        caption="Process definitions"
        queryKey={['workflow', 'definitions']}
        paging="none"
        fetchPage={async (_r, signal) => {
          const items = await listDefinitions(signal);
          return { items, total: items.length };
        }}
        rowKey={(d) => d.key}
        columns={[
          { key: 'key', header: 'Key', rowHeader: true, cell: (d) => <code>{d.key}</code> },
          { key: 'name', header: 'Name', cell: (d) => d.name ?? '' },
          {
            key: 'versions',
            header: 'Versions',
            className: 'wrap',
            cell: (d) => (
              <ul className="inline-list">
                {[...d.versions]
                  .sort((a, b) => b.version - a.version)
                  .map((v) => (
                    <li key={v.id}>
                      <Link
                        to="/workflow/definitions/$id"
                        params={{ id: v.id }}
                        aria-label={`v${v.version} of ${d.key}`}
                      >
                        v{v.version}
                      </Link>
                    </li>
                  ))}
              </ul>
            ),
          },
          {
            key: 'deployed',
            header: 'Latest deployment',
            cell: (d) => d.versions.find((v) => v.version === d.latestVersion)?.deploymentTime ?? '',
          },
        ]}
        empty="No process definitions yet: deploy a BPMN file."
      />
    </Page>
  );
}
