// `npm run bench`: every benchmark of the platform, each beside its baseline, and docs/benchmarks.md written
// from the run. `npm run bench -- core identity` runs the named sections only and replaces only their rows.
//
// Each section runs in a process of its own, one after the other: a load generator that carries the heap an
// earlier section left behind (compiled rules, seeded records) adds its garbage collections to the latency
// figures and their baselines alike.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { auditBench } from './audit.bench.ts';
import { mergeSections, parseBenchmarks, renderBenchmarks, type SectionRun } from './benchmarks-file.ts';
import { bridgeBench } from './bridge.bench.ts';
import { coreBench } from './core.bench.ts';
import { deliveryBench } from './delivery.bench.ts';
import { hubBench } from './hub.bench.ts';
import { identityBench } from './identity.bench.ts';
import { logReaderBench } from './log-reader.bench.ts';
import { thisMachine } from './machine.ts';
import { matcherBench } from './matcher.bench.ts';
import { portalBench } from './portal.bench.ts';
import { readRecordedRows, recordFailure, recordRowsTo } from './recorded-rows.ts';
import { workflowBench } from './workflow.bench.ts';

const sections: Array<[string, () => Promise<void>]> = [
  ['core', coreBench],
  ['log', logReaderBench],
  ['identity', identityBench],
  ['matcher', matcherBench],
  ['bridge', bridgeBench],
  ['delivery', deliveryBench],
  ['audit', auditBench],
  ['hub', hubBench],
  ['workflow', workflowBench],
  ['portal', portalBench],
];
const order = sections.map(([name]) => name);
const DOC = path.resolve(import.meta.dirname, '../../docs/benchmarks.md');
/** set by the parent for a section's process: where that process appends its rows */
const ROWS_FILE = 'BENCH_ROWS_FILE';

const rowsFile = process.env[ROWS_FILE];
if (rowsFile !== undefined) {
  // a section's process: its own children (servers, seeders) record nothing
  delete process.env[ROWS_FILE];
  recordRowsTo(rowsFile);
  try {
    const run = sections.find(([name]) => name === process.argv[2])?.[1];
    if (run === undefined) throw new Error(`no section ${process.argv[2]}`);
    await run();
  } catch (error) {
    recordFailure(error);
    throw error;
  }
} else {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((name) => !order.includes(name));
  if (unknown.length > 0) {
    console.error(`unknown section ${unknown.join(', ')}; the sections: ${order.join(', ')}`);
    process.exitCode = 2;
  } else {
    runSections(asked.length === 0 ? order : order.filter((name) => asked.includes(name)));
  }
}

function previousSections(): SectionRun[] {
  if (!existsSync(DOC)) return [];
  const parsed = parseBenchmarks(readFileSync(DOC, 'utf8'));
  if (parsed === undefined)
    console.error(
      `${path.relative(process.cwd(), DOC)} holds no record of earlier runs that this version reads: it is written afresh`,
    );
  return parsed ?? [];
}

function runSections(chosen: string[]): void {
  const previous = previousSections();
  const fresh: SectionRun[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-rows-'));
  try {
    for (const name of chosen) {
      const file = path.join(dir, `${name}.jsonl`);
      const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
      const started = performance.now();
      const r = spawnSync(process.execPath, [...process.execArgv, import.meta.filename, name], {
        stdio: 'inherit',
        env: { ...process.env, [ROWS_FILE]: file },
      });
      const recorded = readRecordedRows(file);
      const run: SectionRun = {
        section: name,
        date,
        seconds: Math.round((performance.now() - started) / 100) / 10,
        machine: thisMachine(),
        rows: recorded.rows,
      };
      if (r.status !== 0) {
        process.exitCode = r.status ?? 1;
        run.failed =
          recorded.failed ??
          (r.signal ? `the process was killed (${r.signal})` : `the process exited with code ${r.status}`);
      }
      fresh.push(run);
      // written after every section, so that an interrupted run keeps the sections it finished
      mkdirSync(path.dirname(DOC), { recursive: true });
      writeFileSync(DOC, renderBenchmarks(mergeSections(previous, fresh, order), order));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const kept = previous.map((s) => s.section).filter((name) => !chosen.includes(name) && order.includes(name));
  console.log(
    `\n${path.relative(process.cwd(), DOC)}: ${chosen.join(', ')} written${kept.length > 0 ? `; kept from earlier runs: ${kept.join(', ')}` : ''}`,
  );
}
