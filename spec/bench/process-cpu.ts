import { readFileSync } from 'node:fs';

/** CPU time of a process so far, in µs (utime + stime from /proc, clock ticks of 10 ms) */
export const cpuMicros = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the command name, in parentheses, may itself hold ") ": the fields follow the last one
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
};
