#!/usr/bin/env node
// The `platform` CLI. Runs the compiled JavaScript in dist/ (`npm run build`, which `npm ci` runs as the
// prepare script; the Docker image) when it is there and no TypeScript source is newer, else the sources
// through tsx's loader, so a developer who edited a source after building never runs stale code.
// PLATFORM_SOURCES=1 forces the sources.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const compiled = path.join(root, 'dist/infra/cli/main.js');
const SOURCE_DIRS = ['domain', 'commands', 'projections', 'http', 'infra'];

/** the newest modification time of a .ts source (0 when there are none: an image with dist/ only) */
function newestSource() {
  let newest = 0;
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  for (const d of SOURCE_DIRS) walk(path.join(root, d));
  return newest;
}

const useCompiled =
  process.env.PLATFORM_SOURCES !== '1' && existsSync(compiled) && newestSource() <= statSync(compiled).mtimeMs;

if (useCompiled) {
  const { main } = await import(compiled);
  await main();
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../infra/cli/main.ts');
  await main();
}
