import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ScrollRegion } from '../../ui/scroll-region.tsx';
import { BpmnDiagram } from './bpmn-diagram.tsx';
import { completedElements, definitionXml, getJson, type Instance } from './workflow-api.ts';

/**
 * A process instance: its definition's diagram with the active tokens and the completed path marked, its
 * variables, open tasks, pending timers and history. Read again every 5 seconds while open.
 */
export function InstancePage() {
  const { id } = useParams({ strict: false }) as { id: string };
  const q = useQuery({
    queryKey: ['workflow', 'instance', id],
    queryFn: ({ signal }) => getJson<Instance>(`/process-instances/${encodeURIComponent(id)}`, signal),
    refetchInterval: 5000,
  });
  const defId = q.data?.processDefinitionId;
  const xml = useQuery({
    queryKey: ['workflow', 'xml', defId],
    queryFn: ({ signal }) => definitionXml(defId!, signal),
    enabled: defId !== undefined,
  });
  const inst = q.data;
  return (
    <Page
      title={`Process instance ${id}`}
      lead={
        <>
          {inst !== undefined && (
            <>
              <code>{inst.processDefinitionKey}</code> v{inst.processDefinitionVersion}, business key{' '}
              <code>{inst.businessKey ?? '—'}</code>, <strong>{inst.state}</strong>, started {inst.startedDate}
              {inst.endedDate !== null && `, ended ${inst.endedDate}`}.{' '}
            </>
          )}
          <Link to="/workflow/instances">Find instances</Link>
        </>
      }
    >
      {q.isError && (
        <ApiErrorView error={q.error} title="The instance cannot be read" onRetry={() => void q.refetch()} />
      )}
      {xml.isError && <ApiErrorView error={xml.error} title="The definition cannot be read" />}
      {inst !== undefined && xml.data !== undefined ? (
        <BpmnDiagram
          xml={xml.data}
          label={`Diagram of instance ${id}`}
          active={[...new Set(inst.tokens.map((t) => t.elementId))]}
          completed={completedElements(inst)}
        />
      ) : (
        <div className="wf-canvas" aria-busy="true" />
      )}
      {inst !== undefined && (
        <div className="wf-columns">
          <section aria-labelledby="wf-vars">
            <h2 id="wf-vars">Variables</h2>
            <pre className="wf-json">{JSON.stringify(inst.variables, null, 2)}</pre>
            <h3>Query variables</h3>
            <pre className="wf-json">{JSON.stringify(inst.queryVariables, null, 2)}</pre>
            <h2>Open tasks</h2>
            {inst.tasks.length === 0 ? (
              <p>None.</p>
            ) : (
              <ul>
                {inst.tasks.map((t) => (
                  <li key={t.id}>
                    {t.name ?? t.taskDefinitionKey} ({t.status}
                    {t.assignee !== null && `, ${t.assignee}`}) <code>{t.id}</code>
                  </li>
                ))}
              </ul>
            )}
            <h2>Timers</h2>
            {inst.timers.length === 0 ? (
              <p>None pending.</p>
            ) : (
              <ul>
                {inst.timers.map((t) => (
                  <li key={t.id}>
                    <code>{t.elementId}</code> due {t.dueDate}
                    {t.boundary && ' (boundary)'}
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="wf-history">
            <h2 id="wf-history">History</h2>
            <ScrollRegion label={`History of instance ${id}`}>
              <table className="table">
                <caption className="visually-hidden">History of instance {id}</caption>
                <thead>
                  <tr>
                    <th scope="col">#</th>
                    <th scope="col">When</th>
                    <th scope="col">What</th>
                    <th scope="col">Element</th>
                  </tr>
                </thead>
                <tbody>
                  {inst.history.map((h) => (
                    <tr key={`${h.revision}-${h.type}`}>
                      <td className="num">{h.revision}</td>
                      <td className="nowrap">{h.at?.replace('T', ' ')}</td>
                      <td>{h.type}</td>
                      <td>
                        <code>{h.elementId ?? (h.elements ?? []).map((e) => e.elementId).join(', ')}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          </section>
        </div>
      )}
    </Page>
  );
}
