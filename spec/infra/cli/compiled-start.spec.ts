// The production path. `npm run build` compiles to dist/; `bin/platform.js start` runs the
// compiled code where there are no sources (the Docker image's layout: bin/, dist/, node_modules/,
// package.json), serves /health/ready, and stops on SIGTERM with exit 0. The layout is assembled in a temp
// folder: dist/ of the clone when it is up to date (`npm ci` builds it: the prepare script), else compiled
// there (slower, about half a minute).
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually } from '../../core/eventually.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const tmp = mkdtempSync(path.join(tmpdir(), 'compiled-start-'));
const app = path.join(tmp, 'app');

/** dist/ of the clone, when no source is newer than it */
function freshDist(): string | undefined {
  const main = path.join(root, 'dist/infra/cli/main.js');
  if (!existsSync(main)) return undefined;
  const built = statSync(main).mtimeMs;
  const stale = (dir: string): boolean =>
    readdirSync(dir, { withFileTypes: true }).some((e) => {
      const p = path.join(dir, e.name);
      return e.isDirectory() ? stale(p) : e.name.endsWith('.ts') && statSync(p).mtimeMs > built;
    });
  return ['domain', 'commands', 'projections', 'http', 'infra'].some((d) => stale(path.join(root, d)))
    ? undefined
    : path.join(root, 'dist');
}

test.before(() => {
  mkdirSync(path.join(app, 'bin'), { recursive: true });
  copyFileSync(path.join(root, 'bin/platform.js'), path.join(app, 'bin/platform.js'));
  copyFileSync(path.join(root, 'package.json'), path.join(app, 'package.json'));
  symlinkSync(path.join(root, 'node_modules'), path.join(app, 'node_modules'), 'dir');
  const dist = freshDist();
  if (dist !== undefined) symlinkSync(dist, path.join(app, 'dist'), 'dir');
  else {
    const tsc = spawnSync(
      process.execPath,
      [
        path.join(root, 'node_modules/typescript/bin/tsc'),
        '-p',
        path.join(root, 'tsconfig.build.json'),
        '--outDir',
        path.join(app, 'dist'),
      ],
      { encoding: 'utf8' },
    );
    // type errors elsewhere do not stop the emit; a missing entry point does
    assert.ok(
      existsSync(path.join(app, 'dist/infra/cli/main.js')),
      `the build emitted nothing: ${tsc.stdout}${tsc.stderr}`,
    );
  }
});
test.after(() => rmSync(tmp, { recursive: true, force: true }));

test('the compiled platform starts without sources, is ready, and stops on SIGTERM (exit 0)', async () => {
  const env = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: path.join(tmp, 'data'),
    LOG_LEVEL: 'warn',
    PLATFORM_SOURCES: '',
  };
  const child = spawn(process.execPath, [path.join(app, 'bin/platform.js'), 'start'], {
    cwd: app,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const url = await eventually(
    () => {
      const m = /Platform listening on (http:\/\/\S+)/.exec(out);
      assert.ok(m, `no banner in: ${out}`);
      return m[1]!;
    },
    { what: 'the banner', timeoutMs: 30_000, intervalMs: 50 },
  );
  assert.match(out, /code {12}: compiled \(dist\/\)/);
  await eventually(
    async () => {
      const ready = await fetch(`${url}/health/ready`);
      assert.is(ready.status, 200, await ready.text());
      return true;
    },
    { what: 'ready', intervalMs: 50 },
  );
  assert.is((await fetch(`${url}/.well-known/openid-configuration`)).status, 200);
  child.kill('SIGTERM');
  assert.is(await exited, 0, out);
});

test('the compiled CLI answers --help', () => {
  const r = spawnSync(process.execPath, [path.join(app, 'bin/platform.js'), 'replay', '--help'], {
    cwd: app,
    encoding: 'utf8',
  });
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /^usage: platform replay/);
});

test.run();
