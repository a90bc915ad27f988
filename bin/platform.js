#!/usr/bin/env node
// The `platform` CLI. Runs the TypeScript sources through tsx's loader, so a fresh clone needs no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../infra/cli/main.ts');
await main();
