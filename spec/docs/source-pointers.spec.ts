// Source files point readers at the documentation as `docs/<page>.md` or `docs/<page>.md#<anchor>` (in
// comments and in help texts): every such pointer names a page that exists and, with an anchor, one of its
// headings. Sections of the README are not cited by name: the README is a short guide, the sections live
// in docs/.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readSource, sourceFiles } from '../core/comments.scan.ts';
import { headingSlugs } from './heading-slugs.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const FILES = sourceFiles(['domain', 'commands', 'projections', 'http', 'infra', 'bin', 'spec', 'examples']);
const POINTER = /\bdocs\/([\w./-]+?\.md)(?:#([\w-]+))?/g;

const pages = new Map<string, Set<string> | null>();
const slugsOf = (page: string) => {
  if (!pages.has(page)) {
    const file = path.join(ROOT, 'docs', page);
    pages.set(page, existsSync(file) ? headingSlugs(readFileSync(file, 'utf8')) : null);
  }
  return pages.get(page)!;
};

test('every docs/… pointer in the sources names an existing page, and an existing heading of it', () => {
  const problems: string[] = [];
  let pointers = 0;
  for (const file of FILES) {
    readSource(file)
      .split('\n')
      .forEach((line, i) => {
        for (const m of line.matchAll(POINTER)) {
          pointers++;
          const slugs = slugsOf(m[1]!);
          if (slugs === null) problems.push(`${file}:${i + 1}: docs/${m[1]}: no such page`);
          else if (m[2] !== undefined && !slugs.has(m[2].toLowerCase()))
            problems.push(`${file}:${i + 1}: docs/${m[1]}#${m[2]}: no such heading`);
        }
      });
  }
  assert.ok(pointers > 0, 'the sources point at docs/');
  assert.equal(problems, []);
});

test('no README section is cited by name (README "…")', () => {
  const cited = FILES.filter((f) => f !== 'spec/docs/source-pointers.spec.ts').flatMap((file) =>
    readSource(file)
      .split('\n')
      .flatMap((line, i) => (/README(?:'s)? "[^"]+"/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
  assert.equal(cited, []);
});

test("the slugs are GitHub's", () => {
  assert.equal(
    [
      ...headingSlugs(
        '## The REST_WEBHOOK driver\n## `comm-hub.*` properties (configuration center)\n```\n# not a heading\n```\n## Keys\n## Keys\n',
      ),
    ],
    ['the-rest_webhook-driver', 'comm-hub-properties-configuration-center', 'keys', 'keys-1'],
  );
});

test.run();
