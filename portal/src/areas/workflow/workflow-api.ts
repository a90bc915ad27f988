import { API_BASE } from '../../api/client.ts';
import { toApiError } from '../../api/errors.ts';

/**
 * The workflow API's answers as the portal reads them (its OpenAPI document leaves most answers open), and
 * the two calls that are not JSON in and out: the multipart deployment and a version's XML.
 */
export const WF = '/workflow/v1';

export type DefinitionVersion = {
  id: string;
  version: number;
  deploymentId: string;
  deploymentTime: string;
  resource: string;
  versionTag?: string;
};
export type Definition = { key: string; name: string | null; latestVersion: number; versions: DefinitionVersion[] };

export type Deployed = {
  id: string;
  deploymentTime: string;
  deployedProcessDefinitions: Array<{ id: string; key: string; version: number; name: string | null; new: boolean }>;
  warnings: string[];
};

export type Task = {
  id: string;
  name: string | null;
  assignee: string | null;
  status: string;
  priority: number;
  createdDate: string | null;
  claimedDate: string | null;
  taskDefinitionKey: string;
  processDefinitionId: string;
  processInstanceId: string;
  queryVariables: Record<string, unknown>;
  candidateGroups?: string[];
  candidateUsers?: string[];
};

export type HistoryEntry = {
  revision: number;
  at: string | null;
  type: string;
  elementId?: string;
  elements?: Array<{ elementId: string; elementType: string }>;
  [fact: string]: unknown;
};

export type Instance = {
  id: string;
  processDefinitionId: string;
  processDefinitionKey: string;
  processDefinitionVersion: number;
  businessKey: string | null;
  state: string;
  startedDate: string | null;
  endedDate: string | null;
  variables: Record<string, unknown>;
  queryVariables: Record<string, unknown>;
  tokens: Array<{ key: string; elementId: string; elementType: string }>;
  tasks: Task[];
  timers: Array<{ id: string; elementId: string; dueDate: string; boundary: boolean }>;
  history: HistoryEntry[];
};

/** the workflow API acts on the signed-in tenant (it takes no target tenant) */
const url = (path: string) => `${API_BASE}${path}`;

/** POST /deployment with the files as multipart `files`; a refusal is the API's error */
export async function deployFiles(files: readonly File[]): Promise<Deployed> {
  const body = new FormData();
  for (const f of files) body.append('files', f, f.name);
  const res = await fetch(url(`${WF}/deployment`), {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'x-portal': '1' },
    body,
  });
  const answer: unknown = await res.json().catch(() => null);
  if (!res.ok) throw toApiError(res.status, answer);
  return answer as Deployed;
}

/** the XML a version was deployed from */
export async function definitionXml(id: string, signal?: AbortSignal): Promise<string> {
  const res = await fetch(url(`${WF}/process-definitions/${encodeURIComponent(id)}/xml`), {
    credentials: 'same-origin',
    headers: { 'x-portal': '1' },
    ...(signal !== undefined && { signal }),
  });
  if (!res.ok) throw toApiError(res.status, await res.json().catch(() => null));
  return res.text();
}

/** the elements an instance's history shows passed or completed (the diagram's completed path) */
export function completedElements(instance: Instance): string[] {
  const active = new Set(instance.tokens.map((t) => t.elementId));
  const done = new Set<string>();
  // a user task's completion is recorded as TaskCompleted (its task id): its element is the TaskCreated's
  const taskElements = new Map<unknown, string>();
  for (const h of instance.history) {
    if (h.type === 'TaskCreated' && h.elementId !== undefined) taskElements.set(h.taskId, h.elementId);
    if (h.type === 'TaskCompleted' && taskElements.has(h.taskId)) done.add(taskElements.get(h.taskId)!);
    if (h.type === 'ElementCompleted' && h.elementId !== undefined) done.add(h.elementId);
    for (const e of h.elements ?? []) done.add(e.elementId);
  }
  return [...done].filter((id) => !active.has(id));
}

/** a JSON read of the workflow API (its document declares no answer schema for these reads) */
export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url(`${WF}${path}`), {
      credentials: 'same-origin',
      headers: { 'x-portal': '1' },
      ...(signal !== undefined && { signal }),
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw toApiError(0, { code: 'NETWORK.UNAVAILABLE', message: 'the platform cannot be reached' });
  }
  const answer: unknown = await res.json().catch(() => null);
  if (!res.ok) throw toApiError(res.status, answer);
  return answer as T;
}

export async function listDefinitions(signal?: AbortSignal): Promise<Definition[]> {
  return (await getJson<{ content: Definition[] }>('/process-definitions', signal)).content;
}
