// `npm run bench`: every benchmark of the platform in one run, each beside its baseline.
// `npm run bench -- core identity` runs the named sections only.
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
for (const [name, run] of sections) {
  if (only.length === 0 || only.includes(name)) await run();
}
