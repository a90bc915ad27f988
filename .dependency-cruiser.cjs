/** The layer rules of ../shared/DESIGN.md, checked in CI (`npm run depcheck`). */
const ADAPTERS = '^infra/(sqlite|esdb|mongo)/';
module.exports = {
  forbidden: [
    {
      name: 'domain-imports-only-domain',
      comment: 'domain/ is pure: no I/O, no other layer',
      severity: 'error',
      from: { path: '^domain/' },
      to: { path: '^(commands|projections|http|infra|spec)/' },
    },
    {
      name: 'domain-no-io-modules',
      comment: 'domain/ does not touch the network, the disk or the clock through node modules',
      severity: 'error',
      from: { path: '^domain/' },
      to: {
        dependencyTypes: ['core'],
        path: '^(fs|node:fs|net|node:net|http|node:http|https|node:https|child_process|node:child_process|fs/promises|node:fs/promises)$',
      },
    },
    {
      name: 'commands-only-domain-and-ports',
      severity: 'error',
      from: { path: '^commands/' },
      to: { path: `^(http|projections|spec)/|${ADAPTERS}|^infra/(?!core/)` },
    },
    {
      name: 'projections-only-domain-and-ports',
      severity: 'error',
      from: { path: '^projections/' },
      to: { path: '^(http|commands|spec)/|^infra/(?!core/)' },
    },
    {
      name: 'http-never-imports-adapters',
      comment: 'http/ reaches stores through ports; the composition root wires adapters in',
      severity: 'error',
      from: { path: '^http/' },
      to: { path: '^spec/|^infra/(?!core/)' },
    },
    {
      name: 'production-never-imports-spec',
      severity: 'error',
      from: { path: '^(domain|commands|projections|http|infra)/' },
      to: { path: '^spec/' },
    },
    {
      name: 'portal-app-is-browser-code',
      comment:
        "the web console (portal/src) runs in the browser: its own modules, packages, domain/'s scope, path and constants modules, and the tenant code's form",
      severity: 'error',
      from: { path: '^portal/src/' },
      to: {
        path: '^(commands|projections|http|infra|spec)/|^domain/(?!.*\\.(scopes|paths|constants)\\.ts$|core/tenant-code\\.ts$)',
      },
    },
    {
      name: 'constants-modules-import-nothing',
      comment: 'a *.constants.ts module is shared with the browser: it holds values and imports nothing',
      severity: 'error',
      from: { path: '^domain/.*\\.constants\\.ts$' },
      to: { path: '.*' },
    },
    {
      name: 'platform-never-imports-the-portal-app',
      comment: 'the platform serves the built portal (portal/dist); it imports none of its sources',
      severity: 'error',
      from: { path: '^(domain|commands|projections|http|infra)/' },
      to: { path: '^portal/' },
    },
    {
      name: 'no-unresolvable',
      comment: 'an import that does not resolve would slip past every other rule',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // packages that publish only an `exports` map (bpmn-moddle) resolve through it, as Node resolves them
    enhancedResolveOptions: {
      extensions: ['.ts', '.js'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'node', 'default'],
    },
  },
};
