import { cpus } from 'node:os';

/** The machine a section ran on, as the benchmarks file records it beside the section's date. */
export type Machine = { cores: number; cpu: string; node: string };

export const thisMachine = (): Machine => ({
  cores: cpus().length,
  cpu: cpus()[0]?.model.trim() || 'unknown CPU',
  node: process.version,
});

export const machineText = (m: Machine) => `${m.cores} cores, ${m.cpu}, Node ${m.node}`;
