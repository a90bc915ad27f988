import { Router } from 'express';
import { demoCallbackPage, sendPage } from './pages.ts';

/** The page behind the demo clients' redirect URI (only mounted when that URI is on this platform). */
export function createDemoCallbackRouter(deps: { path: string; tokenEndpoint: string }): Router {
  const router = Router();
  router.get(deps.path, (req, res) => {
    const q = (name: string) => (typeof req.query[name] === 'string' ? (req.query[name] as string) : undefined);
    const error = q('error');
    sendPage(
      res,
      error ? 400 : 200,
      demoCallbackPage({
        code: q('code'),
        state: q('state'),
        error: error && `${error}: ${q('error_description') ?? ''}`,
        tokenEndpoint: deps.tokenEndpoint,
      }),
    );
  });
  return router;
}
