import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The portal's production build: `npm run build:portal` (npm ci runs it) writes portal/dist, which the
// platform serves at /portal (http/portal/spa.router.ts). Areas are separate chunks, loaded on demand.
export default defineConfig({
  root: import.meta.dirname,
  base: '/portal/',
  plugins: [react()],
  build: {
    outDir: path.join(import.meta.dirname, 'dist'),
    emptyOutDir: true,
    // no inline assets: the Content-Security-Policy allows this origin's files (images also as data:)
    assetsInlineLimit: 0,
    sourcemap: true,
    // dist/.vite/manifest.json: which chunks each area's pages load (scripts/bundle-size.ts areaSizes)
    manifest: true,
    // scripts/bundle-size.ts reports the sizes against the shell's budget
    reportCompressedSize: false,
    rolldownOptions: { checks: { pluginTimings: false } },
  },
  server: {
    // the scope constants are shared with the platform (domain/*/…scopes.ts)
    fs: { allow: [path.resolve(import.meta.dirname, '..')] },
  },
});
