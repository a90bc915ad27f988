import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { forTenant } from '../../../commands/core/envelopes.ts';

// The command context is the one carrier of the tenant a command acts on: no command takes a tenant beside
// its context, nothing re-targets a context but forTenant (commands/core/envelopes.ts), and no router
// passes a tenant beside the context it built. Read from the sources, so a command written the old way
// fails here rather than in review.
const ROOT = join(import.meta.dirname, '..', '..', '..');
const FOR_TENANT = 'commands/core/envelopes.ts';

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return tsFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

type Finding = { file: string; line: number; text: string };
type Findings = { signatures: Finding[]; merges: Finding[]; calls: Finding[] };

const CONTEXT_TYPE = /\b(CommandContext|CommandMetadata)\b/;
const CONTEXT_NAME = /^(ctx|context|\w*(Ctx|Context))$/;
const TENANT_NAME = /tenant/i;
// what builds a command context in a router, and what names the tenant a request acts on
const CONTEXT_CALL = /^(ctx|\w*[cC]ontext|commandMetadata)$/;
const TENANT_CALL = /^(tenantOf|targetTenant)$/;

const nameOf = (e: ts.Expression): string | undefined =>
  ts.isIdentifier(e) ? e.text : ts.isPropertyAccessExpression(e) ? e.name.text : undefined;
const calleeOf = (e: ts.Expression): string | undefined => (ts.isCallExpression(e) ? nameOf(e.expression) : undefined);

/**
 * - signatures: a function (declaration, method, arrow, type member) with a context parameter and a
 *   parameter named like a tenant;
 * - merges: an object literal that spreads a context and then sets `tenant` (`{ ...ctx, tenant }`);
 * - calls (http/ only): a call passing a context (`ctx(res)`, `commandContext(res)`, `context`) and a
 *   tenant (`tenantOf(res)`, `targetTenant(…)`, `tenant`, `ref.tenant`, an input `{ tenant, … }`) side by side.
 */
function scanSources(sources: Array<{ file: string; text: string }>): Findings {
  const found: Findings = { signatures: [], merges: [], calls: [] };
  for (const { file, text } of sources) {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const at = (node: ts.Node): Finding => ({
      file,
      line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
      text: node.getText(source).split('\n')[0]!.slice(0, 160),
    });
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && file !== FOR_TENANT) {
        const params = node.parameters.map((p) => ({
          name: ts.isIdentifier(p.name) ? p.name.text : '',
          type: p.type?.getText(source) ?? '',
        }));
        const isContext = (p: { name: string; type: string }) =>
          CONTEXT_TYPE.test(p.type) || (p.type === '' && CONTEXT_NAME.test(p.name));
        if (params.some(isContext) && params.some((p) => TENANT_NAME.test(p.name) && !isContext(p)))
          found.signatures.push(at(node));
      }
      if (ts.isObjectLiteralExpression(node) && file !== FOR_TENANT) {
        // a `tenant` after a spread context overrides it; one before it is a default (`{ tenant: 'platform', ...ctx }`)
        const spread = node.properties.findIndex(
          (p) => ts.isSpreadAssignment(p) && CONTEXT_NAME.test(nameOf(p.expression) ?? ''),
        );
        const tenantAfter = node.properties.some(
          (p, i) =>
            i > spread &&
            (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) &&
            p.name.getText(source) === 'tenant',
        );
        if (spread >= 0 && tenantAfter) found.merges.push(at(node));
      }
      if (ts.isCallExpression(node) && file.startsWith('http/') && !CONTEXT_CALL.test(nameOf(node.expression) ?? '')) {
        const args = node.arguments;
        const passesContext = args.some(
          (a) => CONTEXT_CALL.test(calleeOf(a) ?? '') || (ts.isIdentifier(a) && CONTEXT_NAME.test(a.text)),
        );
        const namesTenant = (p: ts.ObjectLiteralElementLike) =>
          (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && p.name.getText(source) === 'tenant';
        const passesTenant = args.some(
          (a) =>
            TENANT_CALL.test(calleeOf(a) ?? '') ||
            (ts.isIdentifier(a) && TENANT_NAME.test(a.text)) ||
            (ts.isPropertyAccessExpression(a) && TENANT_NAME.test(a.name.text)) ||
            (ts.isObjectLiteralExpression(a) && a.properties.some(namesTenant)),
        );
        if (passesContext && passesTenant) found.calls.push(at(node));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

const files = [...tsFiles('commands'), ...tsFiles('http')];
const found = scanSources(files.map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') })));
const where = (f: Finding) => `${f.file}:${f.line} ${f.text}`;

test('the scan reads commands/ and http/ (it is not vacuous)', () => {
  assert.ok(files.includes('commands/bridge/buses.commands.ts'));
  assert.ok(files.includes('http/bridge/buses.router.ts'));
  assert.ok(files.length > 150, `${files.length} files`);
});

test('no command takes a tenant beside its context', () => {
  assert.equal(found.signatures.map(where), []);
});

test('no context is re-targeted by a merge: forTenant is the one way', () => {
  assert.equal(found.merges.map(where), []);
});

test('no router passes a tenant beside the command context', () => {
  assert.equal(found.calls.map(where), []);
});

test('the scan finds the old shapes', () => {
  const command = [
    'export const commands = {',
    '  async remove(tenant: string, name: string, ctx: CommandContext, commandId: string) {',
    '    await handle({ stream: name, commandId, context: { ...ctx, tenant } });',
    '  },',
    '};',
    'type Api = { update(tenant: string, id: string, context: CommandContext): Promise<void> };',
  ].join('\n');
  const router = [
    "route('delete', p, async (req, res) => {",
    '  await c.remove(tenantOf(res), name, ctx(res), id);',
    '  await c.update(ref.tenant, id, commandContext(res));',
    '  await c.create({ tenant: tenantOf(res), name }, ctx(res), id);',
    '});',
  ].join('\n');
  const r = scanSources([
    { file: 'commands/x/probe.commands.ts', text: command },
    { file: 'http/x/probe.router.ts', text: router },
  ]);
  assert.equal([r.signatures.length, r.merges.length, r.calls.length], [2, 1, 3]);
  // the new shapes pass: a context built for the request's tenant, re-targeted by forTenant
  const clean = scanSources([
    {
      file: 'commands/x/probe.commands.ts',
      text: 'export const remove = async (name: string, ctx: CommandContext) => handle({ context: forTenant(ctx, owner(name)) });',
    },
    {
      file: 'http/x/probe.router.ts',
      text: 'await c.remove(name, commandContext(res, targetTenant(res, q.tenant)), id);',
    },
  ]);
  assert.equal([clean.signatures.length, clean.merges.length, clean.calls.length], [0, 0, 0]);
});

test('forTenant changes the tenant only, and gives the same context back when it is the tenant already', () => {
  const ctx = Object.freeze({ tenant: 'platform', actor: 'admin@platform', correlationId: 'c1', causationId: 'r1' });
  assert.equal(forTenant(ctx, 'acme'), {
    tenant: 'acme',
    actor: 'admin@platform',
    correlationId: 'c1',
    causationId: 'r1',
  });
  assert.is(ctx.tenant, 'platform', "the caller's context is left as it was");
  assert.is(forTenant(ctx, 'platform'), ctx);
});

test.run();
