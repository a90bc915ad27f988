import { readFileSync } from 'node:fs';

/** CPU time of a process so far, in µs (utime + stime from /proc, clock ticks of 10 ms) */
export const cpuMicros = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
};
