import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type DragEvent, type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { isApiError } from '../../api/errors.ts';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { useStatus } from '../../ui/status.tsx';
import { BpmnDiagram } from './bpmn-diagram.tsx';
import { type Deployed, deployFiles } from './workflow-api.ts';

/** what a deployment refusal names (the API's details: file, element, id, line, column) */
function ProblemDetails({ error }: { error: unknown }) {
  if (!isApiError(error) || typeof error.details !== 'object' || error.details === null) return null;
  const d = error.details as Record<string, unknown>;
  const rows = (['resource', 'element', 'id', 'line', 'column'] as const).filter((k) => d[k] !== undefined);
  if (rows.length === 0) return null;
  const names = { resource: 'File', element: 'Element', id: 'Element id', line: 'Line', column: 'Column' } as const;
  return (
    <dl className="wf-problem" aria-label="Where the file was refused">
      {rows.map((k) => (
        <div key={k}>
          <dt>{names[k]}</dt>
          <dd>
            <code>{k === 'element' ? `<${String(d[k])}>` : String(d[k])}</code>
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** the refused file drawn with the element the error names marked (when the file can be drawn at all) */
function RefusedDiagram({ error, files }: { error: unknown; files: readonly File[] }) {
  const [xml, setXml] = useState<string | null>(null);
  const d = isApiError(error) && typeof error.details === 'object' ? (error.details as Record<string, unknown>) : {};
  const file = files.find((f) => f.name === d.resource) ?? (files.length === 1 ? files[0] : undefined);
  const elementId = typeof d.id === 'string' ? d.id : undefined;
  useEffect(() => {
    let live = true;
    setXml(null);
    if (file !== undefined && elementId !== undefined) void file.text().then((t) => live && setXml(t));
    return () => {
      live = false;
    };
  }, [file, elementId]);
  if (xml === null || elementId === undefined) return null;
  return <BpmnDiagram xml={xml} label={`The refused file ${file?.name ?? ''}`} failed={[elementId]} />;
}

/**
 * Deploy BPMN files: chosen with the file input (the keyboard's way) or dropped on the zone around it. A
 * refusal shows the API's code and message and the element it names; nothing was stored then.
 */
export function DeployPanel() {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const client = useQueryClient();
  const notify = useStatus();
  const [files, setFiles] = useState<File[]>([]);
  const [over, setOver] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [result, setResult] = useState<Deployed | null>(null);

  const deploy = async (chosen: File[]) => {
    if (chosen.length === 0) return;
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const r = await deployFiles(chosen);
      setResult(r);
      notify({ kind: 'success', text: `Deployed ${r.deployedProcessDefinitions.length} process definition(s)` });
      await client.invalidateQueries({ queryKey: ['workflow', 'definitions'] });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void deploy(files);
  };
  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const dropped = [...e.dataTransfer.files];
    setFiles(dropped);
    void deploy(dropped);
  };

  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Deploy</h2>
      <form
        className={`form wf-drop${over ? ' wf-drop-over' : ''}`}
        onSubmit={submit}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
        data-testid="deploy-drop"
      >
        <div className="field">
          <label htmlFor={`${id}-files`} className="field-label">
            BPMN 2.0 files
          </label>
          <p id={`${id}-hint`} className="field-hint">
            Choose files or drop them here. An unchanged file keeps its version; a changed one becomes the next.
          </p>
          <input
            ref={input}
            id={`${id}-files`}
            type="file"
            multiple
            accept=".bpmn,.xml,application/xml,text/xml"
            className="input"
            aria-describedby={`${id}-hint`}
            onChange={(e) => setFiles([...(e.target.files ?? [])])}
          />
        </div>
        <button type="submit" className="button button-primary" disabled={busy || files.length === 0}>
          {busy ? 'Deploying…' : 'Deploy'}
        </button>
      </form>
      {error !== null && (
        <div>
          <ApiErrorView error={error} title="The deployment was refused" />
          <ProblemDetails error={error} />
          <RefusedDiagram error={error} files={files} />
        </div>
      )}
      {result !== null && (
        <div className="wf-deployed" role="status">
          <p>Deployment {result.id}:</p>
          <ul>
            {result.deployedProcessDefinitions.map((d) => (
              <li key={d.id}>
                <Link to="/workflow/definitions/$id" params={{ id: d.id }}>
                  {d.name ?? d.key} version {d.version}
                </Link>
                {d.new ? ' (new version)' : ' (unchanged)'}
              </li>
            ))}
          </ul>
          {result.warnings.length > 0 && (
            <ul aria-label="Warnings">
              {result.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
