#!/usr/bin/env node
// Runs every spec file (uvu) of spec/ and portal/spec/ in its own Node process, two at a time (the machine has 2 cores), so that
// servers, environment and module state never leak between files. Prints each file's result and ends
// with one line `N passed, M failed` (CI reads it). Arguments filter files by substring.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const filters = process.argv.slice(2);
// the platform's specs, and the portal's own (portal/spec: its browser and component tests)
const files = [...walk(join(root, 'spec')), ...walk(join(root, 'portal', 'spec'))]
  .filter((f) => f.endsWith('.spec.ts'))
  .map((f) => relative(root, f))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

const TIMEOUT_MS = Number(process.env.SPEC_FILE_TIMEOUT_MS ?? 300_000);
let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];

function runFile(file) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, ['--import', 'tsx', file], {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: '0' },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => {
      out += `\n(killed after ${TIMEOUT_MS} ms)`;
      child.kill('SIGKILL');
    }, TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      const num = (label) =>
        [...out.matchAll(new RegExp(`${label}:\\s+(\\d+)`, 'g'))].reduce((s, m) => s + Number(m[1]), 0);
      const total = num('Total');
      const ok = num('Passed');
      const skip = num('Skipped');
      let bad = total - ok - skip;
      if (code !== 0 && bad === 0) bad = 1; // crashed outside a test, or a suite failed to load
      passed += ok;
      skipped += skip;
      failed += bad;
      const secs = ((Date.now() - started) / 1000).toFixed(1);
      const skippedLine = out.split('\n').find((l) => l.startsWith('SKIPPED:'));
      console.log(
        `${bad === 0 ? 'ok  ' : 'FAIL'} ${file}  (${ok} passed${bad ? `, ${bad} failed` : ''}${skippedLine ? `; ${skippedLine}` : ''}; ${secs}s)`,
      );
      if (bad > 0) failures.push({ file, out });
      resolve();
    });
  });
}

const queue = [...files];
const workers = Array.from(
  { length: Math.min(Number(process.env.SPEC_JOBS ?? availableParallelism()), 2) },
  async () => {
    while (queue.length > 0) await runFile(queue.shift());
  },
);
await Promise.all(workers);

for (const f of failures) {
  console.log(`\n===== ${f.file} =====\n${f.out.trim()}`);
}
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exitCode = failed > 0 || files.length === 0 ? 1 : 0;
