// The BPMN acceptance corpus (../shared/corpora/bpmn, beside the clone): its manifest and files, shared by
// the interpreter's walk spec and the HTTP walk spec. Not a spec itself.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CORPUS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/corpora/bpmn');

export type WalkExpect = string[] | 'end' | { error: string | string[] };
export type WalkStep =
  | {
      complete: string;
      controlVariables: Record<string, unknown>;
      expect: WalkExpect;
      expectAssignee?: Record<string, string>;
    }
  | { fireBoundary: string; expect: WalkExpect; expectAssignee?: Record<string, string> };
export type Walk = {
  name: string;
  stubs?: Record<string, Record<string, unknown>>;
  start: { variables: Record<string, unknown> };
  expect: WalkExpect;
  expectAssignee?: Record<string, string>;
  steps: WalkStep[];
};
export type CorpusFile = { file: string; dialect: string; processIds: string[]; walks: Walk[] };
export type Manifest = { files: CorpusFile[]; scenarios: Record<string, { files: string[] }> };

export const corpusAvailable = () => existsSync(path.join(CORPUS_DIR, 'manifest.json'));
export const manifest = (): Manifest =>
  JSON.parse(readFileSync(path.join(CORPUS_DIR, 'manifest.json'), 'utf8')) as Manifest;
export const corpusXml = (file: string) => readFileSync(path.join(CORPUS_DIR, file), 'utf8');

/** the files a walk of `file` needs deployed: the file, and its scenario partners (a call activity's target) */
export function filesFor(m: Manifest, file: string): string[] {
  const partners = Object.values(m.scenarios)
    .filter((s) => s.files.includes(file))
    .flatMap((s) => s.files);
  return [...new Set([file, ...partners])];
}

/** the start variables of a walk: stubs (outputs assumed for DMN and service activities) come in as variables */
export const startVariables = (walk: Walk): Record<string, unknown> =>
  Object.assign({}, walk.start.variables, ...Object.values(walk.stubs ?? {}));

export const errorParts = (e: { error: string | string[] }) => (Array.isArray(e.error) ? e.error : [e.error]);

/** `processKey:elementId` for tasks of a called process, `elementId` for the walk's own process */
export const taskLabel = (rootKey: string, processKey: string, elementId: string) =>
  processKey === rootKey ? elementId : `${processKey}:${elementId}`;
