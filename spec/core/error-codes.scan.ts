// Test helper (not a spec): reads a service's source files and lists the error codes they name, with the
// HTTP status wherever the source pairs a code with a literal status. The catalog specs
// (spec/domain/<service>/<service>.errors.spec.ts) compare this with the service's catalog, so a code
// thrown anywhere but missing from the catalog, or thrown with another status, fails a test.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

export type CodeUse = { file: string; line: number; code: string };
export type StatusPair = CodeUse & { status: number };

export type ScanResult = {
  files: string[];
  /** every `'AREA.NAME'` literal (codes thrown, compared or answered) */
  codes: CodeUse[];
  /** every place a code meets a literal status: `new DomainError('X', 404`, `super('X', 400`, a helper with a fixed status */
  pairs: StatusPair[];
  /** every `new DomainError(` (a throw that does not go through a catalog's factory) */
  constructions: CodeUse[];
};

const CODE = /'([A-Z][A-Z0-9_]*\.[A-Z][A-Z0-9_]*)'/g;
const PAIR = /(?:new DomainError|super)\(\s*'([A-Z][A-Z0-9_]*\.[A-Z][A-Z0-9_]*)',\s*(\d{3})\b/g;
// `const refuse = (code: string, message: string) => new DomainError(code, 400, message)`: calls of the helper pair their code with 400
const HELPER = /const (\w+) = \((\w+): [\w<>'. |]+(?:, [^)]*)?\)(?:: \w+)? =>\s*new DomainError\(\s*\2,\s*(\d{3})\b/g;
const CONSTRUCTION = /new DomainError\(/g;

function tsFiles(dir: string): string[] {
  const abs = join(ROOT, dir);
  let entries: string[];
  try {
    entries = readdirSync(abs);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(abs, name);
    if (statSync(path).isDirectory()) return tsFiles(relative(ROOT, path));
    return name.endsWith('.ts') ? [relative(ROOT, path)] : [];
  });
}

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** Scans every .ts file under the given folders (relative to the repository root). */
export function scanErrorCodes(dirs: string[]): ScanResult {
  const result: ScanResult = { files: [], codes: [], pairs: [], constructions: [] };
  for (const file of dirs.flatMap(tsFiles)) {
    result.files.push(file);
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const m of text.matchAll(CODE)) result.codes.push({ file, line: lineAt(text, m.index), code: m[1]! });
    for (const m of text.matchAll(PAIR))
      result.pairs.push({ file, line: lineAt(text, m.index), code: m[1]!, status: Number(m[2]) });
    for (const m of text.matchAll(CONSTRUCTION))
      result.constructions.push({ file, line: lineAt(text, m.index), code: '' });
    for (const h of text.matchAll(HELPER)) {
      const call = new RegExp(`\\b${h[1]}\\(\\s*'([A-Z][A-Z0-9_]*\\.[A-Z][A-Z0-9_]*)'`, 'g');
      for (const m of text.matchAll(call))
        result.pairs.push({ file, line: lineAt(text, m.index), code: m[1]!, status: Number(h[3]) });
    }
  }
  return result;
}

export const where = (u: CodeUse) => `${u.file}:${u.line}`;
