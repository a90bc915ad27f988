import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { BpmnDiagram } from './bpmn-diagram.tsx';
import { definitionXml, listDefinitions } from './workflow-api.ts';

/** One version of a definition: its diagram, the other versions of its key. */
export function DefinitionPage() {
  const { id } = useParams({ strict: false }) as { id: string };
  const xml = useQuery({ queryKey: ['workflow', 'xml', id], queryFn: ({ signal }) => definitionXml(id, signal) });
  const defs = useQuery({
    queryKey: ['workflow', 'definitions', 'all'],
    queryFn: ({ signal }) => listDefinitions(signal),
  });
  const def = defs.data?.find((d) => d.versions.some((v) => v.id === id));
  const version = def?.versions.find((v) => v.id === id);
  const title = def !== undefined && version !== undefined ? `${def.name ?? def.key} v${version.version}` : id;
  return (
    <Page
      title={title}
      lead={
        <>
          {version !== undefined && (
            <>
              Key <code>{def?.key}</code>, deployed {version.deploymentTime} from {version.resource}.{' '}
            </>
          )}
          <Link to="/workflow/definitions">All definitions</Link>
        </>
      }
    >
      {xml.isError && <ApiErrorView error={xml.error} title="The definition cannot be read" />}
      {xml.data !== undefined ? (
        <BpmnDiagram xml={xml.data} label={`Diagram of ${title}`} />
      ) : (
        !xml.isError && <div className="wf-canvas" aria-busy="true" />
      )}
      {def !== undefined && (
        <section aria-label="Versions">
          <h2>Versions</h2>
          <ul className="inline-list">
            {[...def.versions]
              .sort((a, b) => b.version - a.version)
              .map((v) => (
                <li key={v.id}>
                  {v.id === id ? (
                    <strong>v{v.version}</strong>
                  ) : (
                    <Link to="/workflow/definitions/$id" params={{ id: v.id }}>
                      v{v.version}
                    </Link>
                  )}
                </li>
              ))}
          </ul>
        </section>
      )}
    </Page>
  );
}
