#!/usr/bin/env node
// npm's `prepare` script, run by `npm ci` and `npm install`: the production builds (`npm run build`, dist/,
// then `npm run build:portal`, portal/dist, the web console served at /portal), so that the CLI and `npm start` run compiled code on a fresh clone (bin/platform.js takes dist/ while no
// source is newer) instead of compiling every module through tsx on each command. It skips, saying why,
// where it cannot or need not build: without typescript (an install without dev dependencies:
// `npm ci --omit=dev`, NODE_ENV=production) and without tsconfig.build.json (the Dockerfile installs the
// dependencies before it copies the sources, then runs `npm run build` itself). A failed build fails the
// install, as the build check of a broken tree would.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const project = path.join(root, 'tsconfig.build.json');

const skip = (why) => {
  console.log(`prepare: no build (${why}); dist/ is left as it is`);
  process.exit(0);
};

let tsc;
try {
  tsc = createRequire(path.join(root, 'package.json')).resolve('typescript/bin/tsc');
} catch {
  skip('typescript is not installed: an install without dev dependencies');
}
if (!existsSync(project)) skip('no tsconfig.build.json here yet');

const r = spawnSync(process.execPath, [tsc, '-p', project], { cwd: root, stdio: 'inherit' });
if (r.status !== 0) {
  console.error(`prepare: the build (tsc -p tsconfig.build.json) failed${r.status === null ? ` (${r.signal})` : ''}`);
  process.exit(r.status ?? 1);
}
if (!existsSync(path.join(root, 'portal', 'vite.config.ts'))) {
  console.log('prepare: dist/ built; no portal build (no portal/vite.config.ts here)');
  process.exit(0);
}
// npm sets npm_execpath to its own CLI while it runs a script
const npm = process.env.npm_execpath;
const p = npm
  ? spawnSync(process.execPath, [npm, 'run', '--silent', 'build:portal'], { cwd: root, stdio: 'inherit' })
  : spawnSync('npm', ['run', '--silent', 'build:portal'], {
      cwd: root,
      stdio: 'inherit',
      shell: process.platform === 'win32',
    });
if (p.status !== 0)
  console.error(
    `prepare: the portal's build (npm run build:portal) failed${p.status === null ? ` (${p.signal})` : ''}`,
  );
process.exit(p.status ?? 1);
