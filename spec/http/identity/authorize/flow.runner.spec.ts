// The browser flows' runner on a real HTTP server: steps run in order until one answers, a RedirectError
// goes back to the client only once redirect_uri is known, and a list in which no step answers is a bug
// reported as such (never a hanging request).
import express, { type Request, type Response } from 'express';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type RunningServer, startHttpServer } from '../../../../http/core/server.ts';
import { paramsOf } from '../../../../http/identity/authorize/authorization-request.ts';
import { PageError, RedirectError } from '../../../../http/identity/authorize/authorize.errors.ts';
import type { FlowContext, FlowEnv, Step } from '../../../../http/identity/authorize/flow.context.ts';
import { runFlow } from '../../../../http/identity/authorize/flow.runner.ts';

const env = { issuer: 'https://idp.example' } as FlowEnv;
const ran: string[] = [];

/** a step that records its name and does `then` */
const step = (name: string, then: (ctx: FlowContext) => ReturnType<Step> = () => undefined): Step => {
  const fn: Step = (ctx) => {
    ran.push(name);
    return then(ctx);
  };
  Object.defineProperty(fn, 'name', { value: name });
  return fn;
};
const knowRedirectUri = step('knowRedirectUri', (ctx) => {
  ctx.request.redirectUri = 'https://rp.example/cb?keep=1';
  ctx.request.state = 'st-1';
});
const answer = step('answer', (ctx) => {
  ctx.res.status(200).send('answered');
  return 'answered';
});
const never = step('never');
const redirectError = step('redirectError', () => {
  throw new RedirectError('invalid_scope', 'scope not allowed');
});

const flows: Record<string, Step[]> = {
  ordered: [step('first'), step('second'), answer, never],
  'redirect-error-known': [knowRedirectUri, redirectError, never],
  'redirect-error-unknown': [redirectError, never],
  'async-answer': [step('wait', async () => new Promise((r) => setTimeout(r, 5))), answer],
  'no-answer': [step('first'), step('last')],
};

const flow = suite('authorize flow runner');
let server: RunningServer;

flow.before(async () => {
  const app = express();
  app.get('/flow/:name', async (req: Request, res: Response) => {
    try {
      await runFlow(flows[req.params.name as string]!, { req, res, params: paramsOf(req), request: {} }, env);
    } catch (err) {
      // what the page handler does with what the runner lets through
      res
        .status(err instanceof PageError ? err.status : 500)
        .send(`${(err as Error).constructor.name}: ${(err as Error).message}`);
    }
  });
  server = await startHttpServer(app, { port: 0, host: '127.0.0.1' });
});
flow.after(() => server.close());
flow.before.each(() => void (ran.length = 0));

const get = (name: string) => fetch(`${server.url}/flow/${name}`, { redirect: 'manual' });

flow('runs the steps in order and stops at the one that answers', async () => {
  const res = await get('ordered');
  assert.is(res.status, 200);
  assert.is(await res.text(), 'answered');
  assert.equal(ran, ['first', 'second', 'answer']);
});

flow('awaits asynchronous steps before the next', async () => {
  const res = await get('async-answer');
  assert.is(await res.text(), 'answered');
  assert.equal(ran, ['wait', 'answer']);
});

flow('a RedirectError once redirect_uri is known: back to the client with error, state and iss', async () => {
  const res = await get('redirect-error-known');
  assert.is(res.status, 302);
  const to = new URL(res.headers.get('location')!);
  assert.is(`${to.origin}${to.pathname}`, 'https://rp.example/cb');
  assert.equal(Object.fromEntries(to.searchParams), {
    keep: '1',
    error: 'invalid_scope',
    error_description: 'scope not allowed',
    state: 'st-1',
    iss: 'https://idp.example',
  });
  assert.is(res.headers.get('cache-control'), 'no-store');
  assert.equal(ran, ['knowRedirectUri', 'redirectError']);
});

flow('a RedirectError before redirect_uri is known is not a redirect (the caller shows a page)', async () => {
  const res = await get('redirect-error-unknown');
  assert.is(res.status, 500);
  assert.is(res.headers.get('location'), null);
  assert.match(await res.text(), /^RedirectError: scope not allowed/);
});

flow('a flow whose steps all pass on is an error naming its last step', async () => {
  const res = await get('no-answer');
  assert.is(res.status, 500);
  assert.match(await res.text(), /no step answered \(last step: last\)/);
  assert.equal(ran, ['first', 'last']);
});

flow.run();
