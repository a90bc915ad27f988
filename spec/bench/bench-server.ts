import { spawn } from 'node:child_process';

/**
 * Starts a benchmark server in its own process (so it has a core to itself and the load generator does not
 * share its event loop) and waits for its `READY <json>` line; `stop` sends SIGTERM and waits for the exit.
 */
export async function spawnBenchServer<T>(args: string[], label: string, nodeFlags: string[] = []): Promise<{ ready: T; stop(): Promise<void> }> {
  // BENCH_CHILD_PROF=<dir>: every server writes a CPU profile there when it stops
  const prof = process.env.BENCH_CHILD_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CHILD_PROF}`] : [];
  const child = spawn(process.execPath, [...prof, ...nodeFlags, '--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<T>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /READY (\{.*\})/.exec(out);
      if (m) resolve(JSON.parse(m[1]!) as T);
    });
    void exited.then(() => reject(new Error(`${label} exited: ${err.slice(-2000)}`)));
  });
  return {
    ready,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
