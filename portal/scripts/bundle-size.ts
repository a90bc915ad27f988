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

type ManifestChunk = {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
};

/**
 * What opening each area costs beyond the shell: the JavaScript and CSS of its pages (the chunks its
 * routes load on demand, `src/areas/<area>/*`) with everything they import statically, less what the
 * shell has loaded already; gzipped. A chunk shared by two areas counts in both: each first visit loads it.
 * `onDemandJsGzip`: what its pages load later themselves (bpmn-js, by the pages that draw a diagram).
 */
export function areaSizes(
  dir = dist,
): Array<{ area: string; jsGzip: number; cssGzip: number; onDemandJsGzip: number }> {
  const manifest = JSON.parse(readFileSync(path.join(dir, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const closure = (keys: string[]): Set<string> => {
    const seen = new Set<string>();
    const walk = (k: string) => {
      if (seen.has(k) || manifest[k] === undefined) return;
      seen.add(k);
      for (const i of manifest[k]!.imports ?? []) walk(i);
    };
    for (const k of keys) walk(k);
    return seen;
  };
  const filesOf = (keys: Set<string>) =>
    new Set([...keys].flatMap((k) => [manifest[k]!.file, ...(manifest[k]!.css ?? [])]));
  const shell = filesOf(closure(Object.keys(manifest).filter((k) => manifest[k]!.isEntry)));
  const gzip = new Map<string, number>();
  const sizeOf = (file: string) => {
    if (!gzip.has(file)) gzip.set(file, gzipSync(readFileSync(path.join(dir, file)), { level: 9 }).length);
    return gzip.get(file)!;
  };
  const areas = new Set(Object.values(manifest).flatMap((c) => /^src\/areas\/([^/]+)\//.exec(c.src ?? '')?.[1] ?? []));
  const pageKeys = new Set(
    Object.keys(manifest).filter(
      (k) => manifest[k]!.isDynamicEntry && (manifest[k]!.src ?? '').startsWith('src/areas/'),
    ),
  );
  return [...areas].sort().map((area) => {
    const pages = Object.keys(manifest).filter(
      (k) => manifest[k]!.isDynamicEntry && (manifest[k]!.src ?? '').startsWith(`src/areas/${area}/`),
    );
    const loaded = closure(pages);
    const files = [...filesOf(loaded)].filter((f) => !shell.has(f));
    const total = (list: string[], ext: string) =>
      list.filter((f) => f.endsWith(ext)).reduce((s, f) => s + sizeOf(f), 0);
    // the dynamic imports of its chunks that are no page of an area (those are routes, counted there)
    const later = [...loaded].flatMap((k) => manifest[k]!.dynamicImports ?? []).filter((k) => !pageKeys.has(k));
    const lazyFiles = [...filesOf(closure(later))].filter((f) => !shell.has(f) && !files.includes(f));
    return {
      area,
      jsGzip: total(files, '.js'),
      cssGzip: total(files, '.css'),
      onDemandJsGzip: total(lazyFiles, '.js'),
    };
  });
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
