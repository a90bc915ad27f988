import { spawn } from 'node:child_process';

export type BenchServerOptions<T> = {
  /** node flags before the script (default none) */
  nodeFlags?: string[];
  /** run the script through tsx (default true; false: plain node, e.g. bin/platform.js on a compiled dist/) */
  tsx?: boolean;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** what the server's output says when it is ready (default: its `READY <json>` line) */
  ready?: (out: string) => T | undefined;
};

const readyLine = <T>(out: string): T | undefined => {
  const m = /READY (\{.*\})/.exec(out);
  return m ? (JSON.parse(m[1]!) as T) : undefined;
};

/**
 * Starts a benchmark server in its own process (so it has a core to itself and the load generator does not
 * share its event loop) and waits until its output says it is ready (by default a `READY <json>` line);
 * `stop` sends SIGTERM and waits for the exit. `pid` is the server's, for /proc readings.
 */
export async function spawnBenchServer<T>(
  args: string[],
  label: string,
  o: BenchServerOptions<T> = {},
): Promise<{ ready: T; pid: number; stop(): Promise<void> }> {
  const { nodeFlags = [], tsx = true, env, cwd, ready: isReady = readyLine<T> } = o;
  // BENCH_CHILD_PROF=<dir>: every server writes a CPU profile there when it stops
  const prof = process.env.BENCH_CHILD_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CHILD_PROF}`] : [];
  const child = spawn(process.execPath, [...prof, ...nodeFlags, ...(tsx ? ['--import', 'tsx'] : []), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(env && { env }),
    ...(cwd && { cwd }),
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<T>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const r = isReady(out);
      if (r !== undefined) resolve(r);
    });
    void exited.then(() => reject(new Error(`${label} exited: ${out.slice(-1000)} ${err.slice(-2000)}`)));
  });
  return {
    ready,
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
