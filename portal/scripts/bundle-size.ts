// After `vite build`: the portal's JavaScript and CSS, raw and gzipped, and the shell's share (what the
// first page loads: the entry chunk and what index.html preloads), against its 200 KB gzip budget.
// `--json` prints the figures as JSON (spec/bench reads them). Exits 1 when the shell is over budget.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '..', 'dist');
export const SHELL_BUDGET_GZIP = 200 * 1024;

export type BundleFile = { file: string; bytes: number; gzip: number; shell: boolean };
export type BundleSizes = {
  files: BundleFile[];
  shellJsGzip: number;
  shellJsBytes: number;
  allJsGzip: number;
  cssGzip: number;
};

export function bundleSizes(dir = dist): BundleSizes {
  const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
  const initial = new Set(
    [...html.matchAll(/(?:src|href)="\/portal\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!),
  );
  const files = readdirSync(path.join(dir, 'assets'))
    .filter((f) => /\.(js|css)$/.test(f))
    .map((f): BundleFile => {
      const body = readFileSync(path.join(dir, 'assets', f));
      return {
        file: `assets/${f}`,
        bytes: statSync(path.join(dir, 'assets', f)).size,
        gzip: gzipSync(body, { level: 9 }).length,
        shell: initial.has(`assets/${f}`),
      };
    })
    .sort((a, b) => b.gzip - a.gzip);
  const sum = (list: BundleFile[], key: 'bytes' | 'gzip') => list.reduce((s, f) => s + f[key], 0);
  const js = files.filter((f) => f.file.endsWith('.js'));
  const shellJs = js.filter((f) => f.shell);
  return {
    files,
    shellJsGzip: sum(shellJs, 'gzip'),
    shellJsBytes: sum(shellJs, 'bytes'),
    allJsGzip: sum(js, 'gzip'),
    cssGzip: sum(
      files.filter((f) => f.file.endsWith('.css')),
      'gzip',
    ),
  };
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === import.meta.filename) {
  const sizes = bundleSizes();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(sizes));
  } else {
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    console.log('portal bundle (gzip level 9):');
    for (const f of sizes.files)
      console.log(
        `  ${f.shell ? 'shell' : 'lazy '}  ${f.file.padEnd(44)} ${kb(f.bytes).padStart(9)}  gzip ${kb(f.gzip).padStart(8)}`,
      );
    console.log(
      `  shell JavaScript: ${kb(sizes.shellJsGzip)} gzip of a ${kb(SHELL_BUDGET_GZIP)} budget; all JavaScript ${kb(sizes.allJsGzip)}; CSS ${kb(sizes.cssGzip)}`,
    );
  }
  if (sizes.shellJsGzip > SHELL_BUDGET_GZIP) {
    console.error(
      `the shell's JavaScript is over its budget: ${sizes.shellJsGzip} > ${SHELL_BUDGET_GZIP} bytes gzipped`,
    );
    process.exitCode = 1;
  }
}
