import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { sessionQuery } from '../../api/session.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { Form, TextField, useApiForm } from '../../ui/form.tsx';
import { ScrollRegion } from '../../ui/scroll-region.tsx';
import { useStatus } from '../../ui/status.tsx';
import { ADMIN, Fact, Time } from './ops.shared.tsx';
import { DocumentField } from './schema-upload.tsx';
import { ValidateForm } from './schema-validate.tsx';
import type { SchemaRow } from './schemas.page.tsx';

const VERSION = `${ADMIN}/schemas/{id}/versions/{version}` as const;

/** saves a version's document as a file: fetched through the API (it needs the portal's header), then handed to the browser */
async function download(schemaId: string, version: string): Promise<void> {
  const text = await call(api.bridge.GET(VERSION, { params: { path: { id: schemaId, version } }, parseAs: 'text' }));
  const url = URL.createObjectURL(new Blob([String(text)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `schema-${schemaId}-${version}.json`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** One schema: its versions (each downloadable), a new version's upload, and validating an event against a version. */
export function SchemaPage() {
  const { schemaId } = useParams({ strict: false }) as { schemaId: string };
  const notify = useStatus();
  const queryClient = useQueryClient();
  const [downloadError, setDownloadError] = useState<unknown>(null);
  const query = useQuery({
    queryKey: ['bridge', 'schema', schemaId],
    queryFn: async ({ signal }) =>
      (await call(
        api.bridge.GET(`${ADMIN}/schemas/{id}`, { params: { path: { id: schemaId } }, signal }),
      )) as unknown as SchemaRow,
  });
  const s = query.data;
  // a platform schema is changed by the platform's administrators only: others are not offered the upload
  const tenant = useQuery(sessionQuery).data?.tenant;
  const upload = useApiForm<{ content: string; version: string }>({
    initial: { content: '', version: '' },
    submit: (v) =>
      call(
        api.bridge.POST(`${ADMIN}/schemas/{id}/versions`, {
          params: { path: { id: schemaId } },
          body: { content: v.content, ...(v.version !== '' && { version: v.version }) },
        }),
      ),
    onSuccess: () => {
      notify({ kind: 'success', text: 'Version uploaded' });
      upload.reset();
      void query.refetch();
      void queryClient.invalidateQueries({ queryKey: ['bridge', 'schemas'] });
    },
  });
  return (
    <>
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <ol>
          <li>
            <Link to="/bridge/schemas">Schema registry</Link>
          </li>
          <li aria-current="page">{s?.name ?? schemaId}</li>
        </ol>
      </nav>
      <Page title={s === undefined ? `Schema ${schemaId}` : `Schema ${s.name}`} lead={s?.description}>
        {query.isError && (
          <ApiErrorView
            error={query.error}
            title="The schema could not be loaded"
            onRetry={() => void query.refetch()}
          />
        )}
        {s !== undefined && (
          <>
            <dl className="facts">
              <Fact term="Schema ID">
                <span className="mono">{s.schemaId}</span>
              </Fact>
              <Fact term="Owner">{s.platform ? 'platform' : s.tenant}</Fact>
              <Fact term="Bus">{s.bus}</Fact>
              <Fact term="Status">{s.deleted ? 'deleted (versions stay readable)' : 'in use'}</Fact>
            </dl>
            <section className="ops-section" aria-labelledby="versions">
              <h2 id="versions">Versions</h2>
              {downloadError !== null && <ApiErrorView error={downloadError} title="Not downloaded" />}
              <ScrollRegion label={`Versions of ${s.name}`}>
                <table className="table">
                  <caption className="visually-hidden">Versions of {s.name}</caption>
                  <thead>
                    <tr>
                      <th scope="col">Version</th>
                      <th scope="col">Added</th>
                      <th scope="col">Document</th>
                    </tr>
                  </thead>
                  <tbody>
                    {[...s.versions].reverse().map((v) => (
                      <tr key={v.version}>
                        <th scope="row">{v.version}</th>
                        <td>
                          <Time iso={v.createdAt} />
                        </td>
                        <td>
                          <button
                            type="button"
                            className="button button-small"
                            aria-label={`Download version ${v.version}`}
                            onClick={() => {
                              setDownloadError(null);
                              download(s.schemaId, v.version).catch(setDownloadError);
                            }}
                          >
                            Download
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollRegion>
            </section>
            {!s.deleted && s.tenant === tenant && (
              <section className="ops-section" aria-labelledby="upload">
                <h2 id="upload">Upload a new version</h2>
                <Form form={upload} submitLabel="Upload version" busyLabel="Uploading…">
                  <DocumentField form={upload} />
                  <TextField form={upload} name="version" label="Version" hint="Empty: the document's info.version." />
                </Form>
              </section>
            )}
            <section className="ops-section" aria-labelledby="validate">
              <h2 id="validate">Validate an event</h2>
              <ValidateForm
                key={s.latestVersion ?? ''}
                schemaId={s.schemaId}
                versions={s.versions.map((v) => v.version)}
              />
            </section>
          </>
        )}
      </Page>
    </>
  );
}
