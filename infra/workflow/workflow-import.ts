import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import yauzl from 'yauzl';
import { normalizedHash, parseBpmn } from '../../commands/workflow/bpmn/bpmn.parse.ts';
import { createDefinitionCatalog } from '../../commands/workflow/definition.catalog.ts';
import { createDeployCommands, MAX_BPMN_BYTES } from '../../commands/workflow/deploy.commands.ts';
import { isDomainError } from '../../domain/core/domain-error.ts';
import type { Clock } from '../core/clock.port.ts';
import type { EventStore } from '../core/event-store.port.ts';

/**
 * The data-import route for definitions (the spec's "alternative deployment"): every BPMN file of the
 * business data layout `bizdata/wf_<engine>/wf_zip/…` in a folder or a .zip (files there may themselves be
 * .zip archives of BPMN files) is deployed for a tenant, one deployment per file; a file whose processes
 * are all unchanged (the latest version has its normalized hash) is skipped. Answers a summary.
 */
export type ImportedFile = { path: string; content: string };
export type ImportSummary = {
  deployed: Array<{ path: string; definitions: string[] }>;
  unchanged: string[];
  failed: Array<{ path: string; error: string }>;
};

const BPMN = /\.(bpmn|bpmn20\.xml|xml)$/i;
const LAYOUT = /(^|\/)(bizdata\/)?wf_[^/]+\/wf_zip\/(.+)$/;
const MAX_ENTRIES = 1000;

async function walk(dir: string, root: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(full, root)));
    else if (entry.isFile()) out.push(path.relative(root, full).split(path.sep).join('/'));
  }
  return out.sort();
}

/** the entries of a zip (name → bytes), sizes and counts bounded */
async function unzip(zip: yauzl.ZipFile): Promise<Array<{ name: string; data: Buffer }>> {
  const out: Array<{ name: string; data: Buffer }> = [];
  try {
    for (;;) {
      const entry = await new Promise<yauzl.Entry | null>((resolve, reject) => {
        const onEntry = (e: yauzl.Entry) => (cleanup(), resolve(e));
        const onEnd = () => (cleanup(), resolve(null));
        const onError = (err: Error) => (cleanup(), reject(err));
        const cleanup = () => {
          zip.off('entry', onEntry);
          zip.off('end', onEnd);
          zip.off('error', onError);
        };
        zip.on('entry', onEntry);
        zip.on('end', onEnd);
        zip.on('error', onError);
        zip.readEntry();
      });
      if (entry === null) return out;
      if (entry.fileName.endsWith('/')) continue;
      if (out.length >= MAX_ENTRIES) throw new Error(`more than ${MAX_ENTRIES} entries`);
      if (entry.uncompressedSize > MAX_BPMN_BYTES * 4)
        throw new Error(`${entry.fileName}: larger than ${MAX_BPMN_BYTES * 4} bytes`);
      const stream = await zip.openReadStreamPromise(entry);
      const chunks: Buffer[] = [];
      for await (const c of stream) chunks.push(c as Buffer);
      out.push({ name: entry.fileName, data: Buffer.concat(chunks) });
    }
  } finally {
    zip.close();
  }
}

/** the BPMN files of the layout in a folder or a .zip, with their paths there */
export async function collectBpmnFiles(source: string): Promise<ImportedFile[]> {
  const entries: Array<{ name: string; data: () => Promise<Buffer> }> = [];
  if ((await stat(source)).isDirectory()) {
    for (const rel of await walk(source, source))
      entries.push({ name: rel, data: () => readFile(path.join(source, rel)) });
  } else {
    for (const e of await unzip(await yauzl.openPromise(source, { lazyEntries: true })))
      entries.push({ name: e.name, data: async () => e.data });
  }
  const files: ImportedFile[] = [];
  for (const e of entries) {
    const m = LAYOUT.exec(e.name);
    if (m === null) continue;
    if (/\.zip$/i.test(e.name)) {
      const inner = await unzip(await yauzl.fromBufferPromise(await e.data(), { lazyEntries: true }));
      for (const i of inner.filter((x) => BPMN.test(x.name)))
        files.push({ path: `${e.name}!${i.name}`, content: i.data.toString('utf8') });
    } else if (BPMN.test(e.name)) {
      files.push({ path: e.name, content: (await e.data()).toString('utf8') });
    }
  }
  return files;
}

export async function importWorkflowDefinitions(o: {
  eventStore: EventStore;
  clock: Clock;
  tenant: string;
  source: string;
}): Promise<ImportSummary> {
  const { eventStore, clock, tenant } = o;
  const catalog = createDefinitionCatalog({ eventStore });
  const deploy = createDeployCommands({ eventStore, clock, catalog });
  const summary: ImportSummary = { deployed: [], unchanged: [], failed: [] };
  for (const file of await collectBpmnFiles(o.source)) {
    const name = file.path.slice(file.path.lastIndexOf('/') + 1);
    try {
      const parsed = await parseBpmn(file.content, name);
      const hash = normalizedHash(file.content);
      const latest = await Promise.all(
        parsed.models.map(async (m) => (await catalog.versions(tenant, m.key)).versions.at(-1)?.hash),
      );
      if (latest.every((h) => h === hash)) {
        summary.unchanged.push(file.path);
        continue;
      }
      const r = await deploy.deploy(
        [{ name, content: file.content }],
        { tenant, actor: 'platform workflow import' },
        `import/${tenant}/${file.path}/${hash}`,
        `import ${file.path}`,
      );
      summary.deployed.push({ path: file.path, definitions: r.definitions.map((d) => d.id) });
    } catch (err) {
      if (!isDomainError(err)) throw err;
      summary.failed.push({ path: file.path, error: err.message });
    }
  }
  return summary;
}

/** `platform workflow import <folder or .zip> [--tenant T]`: prints the summary; 1 when a file failed or none was found */
export async function runWorkflowImport(o: {
  eventStore: EventStore;
  clock: Clock;
  tenant: string;
  source: string;
  write(line: string): void;
}): Promise<number> {
  const s = await importWorkflowDefinitions(o);
  for (const d of s.deployed) o.write(`deployed   ${d.path}  ${d.definitions.join(', ')}`);
  for (const u of s.unchanged) o.write(`unchanged  ${u}`);
  for (const f of s.failed) o.write(`FAILED     ${f.path}  ${f.error}`);
  const total = s.deployed.length + s.unchanged.length + s.failed.length;
  if (total === 0) o.write(`no BPMN files under bizdata/wf_<engine>/wf_zip in ${o.source}`);
  o.write(
    `tenant ${o.tenant}: ${s.deployed.length} deployed, ${s.unchanged.length} unchanged (skipped), ${s.failed.length} failed`,
  );
  return total === 0 || s.failed.length > 0 ? 1 : 0;
}
