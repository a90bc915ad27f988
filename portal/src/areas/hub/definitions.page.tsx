import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { DefinitionTimeline } from './definition-timeline.tsx';
import { allDefinitions, type Definition, when } from './hub-defs-api.ts';
import './hub-defs.css';
import { ScrollRegion } from '../../ui/scroll-region.tsx';

/**
 * The notification definitions grouped by NotificationCode, each code's versions on one time axis
 * (selectable, i.e. enabled, versions never overlap; a disabled one may) and in a table with their window.
 */
export function DefinitionsPage() {
  const query = useQuery({ queryKey: ['hub', 'definitions'], queryFn: ({ signal }) => allDefinitions(signal) });
  const groups = groupByCode(query.data ?? []);
  return (
    <Page
      title="Definitions"
      lead="A notification code's versions, each effective for a window; a send selects the enabled version effective at its acceptance."
      actions={
        <Link to="/hub/definitions/$id" params={{ id: 'new' }} className="button button-primary hd-link-button">
          New definition
        </Link>
      }
    >
      {query.isError && (
        <ApiErrorView
          error={query.error}
          title="The definitions could not be loaded"
          onRetry={() => void query.refetch()}
        />
      )}
      {query.isPending && (
        <p className="hd-muted" role="status">
          Loading the definitions…
        </p>
      )}
      {query.data !== undefined && groups.length === 0 && (
        <p className="hd-muted">No definitions yet: a definition version makes a notification code sendable.</p>
      )}
      {groups.map(([code, versions]) => (
        <section key={code} className="hd-code-group" aria-labelledby={`code-${code}`}>
          <div className="hd-section-head">
            <h2 id={`code-${code}`}>{code}</h2>
            <Link
              to="/hub/definitions/$id"
              params={{ id: 'new' }}
              search={((prev: Record<string, unknown>) => ({ ...prev, code })) as never}
              className="button button-small hd-link-button"
              aria-label={`New version of ${code}`}
            >
              New version
            </Link>
          </div>
          <DefinitionTimeline versions={versions} />
          <VersionsTable code={code} versions={versions} />
        </section>
      ))}
    </Page>
  );
}

function groupByCode(items: readonly Definition[]): Array<[string, Definition[]]> {
  const by = new Map<string, Definition[]>();
  for (const d of items) by.set(d.NotificationCode, [...(by.get(d.NotificationCode) ?? []), d]);
  return [...by.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, vs]) => [code, vs.sort((a, b) => a.Version - b.Version)]);
}

function VersionsTable({ code, versions }: { code: string; versions: Definition[] }) {
  return (
    <ScrollRegion label={`Versions of ${code}`}>
      <table className="table">
        <caption className="visually-hidden">Versions of {code}</caption>
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Effective from</th>
            <th scope="col">Until</th>
            <th scope="col">Selectable</th>
            <th scope="col">Strategy</th>
            <th scope="col">Class</th>
            <th scope="col">Context</th>
          </tr>
        </thead>
        <tbody>
          {versions.map((d) => (
            <tr key={d.DefinitionId}>
              <th scope="row">
                <Link to="/hub/definitions/$id" params={{ id: d.DefinitionId }} aria-label={`v${d.Version} of ${code}`}>
                  v{d.Version}
                </Link>
              </th>
              <td>{when(d.EffectiveTime)}</td>
              <td>{d.ExpiryTime === undefined ? 'open-ended' : when(d.ExpiryTime)}</td>
              <td>{d.Enabled ? 'yes' : 'no (disabled)'}</td>
              <td>{d.DeliveryStrategy}</td>
              <td>{d.NotificationClass}</td>
              <td>{d.ContextDefinitionId ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
