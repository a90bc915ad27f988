// `npm run bench`: every benchmark of the platform in one run, each beside its baseline.
import { coreBench } from './core.bench.ts';

const only = process.argv.slice(2);
const sections: Array<[string, () => Promise<void>]> = [['core', coreBench]];
for (const [name, run] of sections) {
  if (only.length === 0 || only.includes(name)) await run();
}
