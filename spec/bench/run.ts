// `npm run bench`: every benchmark of the platform in one run, each beside its baseline.
// `npm run bench -- core identity` runs the named sections only.
//
// Each section runs in a process of its own, one after the other: the load generator of a latency figure
// must not carry the heap an earlier section left behind (10,000 compiled rules, a million seeded records):
// its garbage collections would land in both the figure and its baseline (the audit query's p99 and bare
// express's read 3.1–3.3 ms after the other sections in one process, 1.7–1.9 ms on their own).
import { spawnSync } from 'node:child_process';
import { auditBench } from './audit.bench.ts';
import { bridgeBench } from './bridge.bench.ts';
import { coreBench } from './core.bench.ts';
import { deliveryBench } from './delivery.bench.ts';
import { hubBench } from './hub.bench.ts';
import { identityBench } from './identity.bench.ts';
import { logReaderBench } from './log-reader.bench.ts';
import { matcherBench } from './matcher.bench.ts';
import { workflowBench } from './workflow.bench.ts';

const only = process.argv.slice(2);
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
];
const chosen = sections.filter(([name]) => only.length === 0 || only.includes(name));
if (chosen.length === 1) await chosen[0]![1]();
else {
  for (const [name] of chosen) {
    const r = spawnSync(process.execPath, [...process.execArgv, import.meta.filename, name], { stdio: 'inherit' });
    if (r.status !== 0) process.exitCode = r.status ?? 1;
  }
}
