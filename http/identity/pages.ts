import type { Response } from 'express';
import { LOGIN_PATH } from './identity.paths.ts';

/**
 * The provider's few HTML pages: the login form, the error page and the signed-out page. Plain, accessible
 * HTML (a <label> per field, the error in an alert region), no scripts, every value escaped, never a stack.
 */
export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `
  body { font-family: system-ui, sans-serif; max-width: 26rem; margin: 4rem auto; padding: 0 1rem; color: #1b1b1b; }
  h1 { font-size: 1.5rem; }
  label { display: block; margin-top: 1rem; font-weight: 600; }
  input[type=text], input[type=password] { width: 100%; padding: .5rem; font-size: 1rem; box-sizing: border-box; }
  button { margin-top: 1.5rem; padding: .6rem 1.2rem; font-size: 1rem; }
  .error { border: 1px solid #b00020; background: #fdecee; padding: .75rem; margin-top: 1rem; }
`;

function layout(title: string, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${main}
</main>
</body>
</html>
`;
}

/** Security headers of every page: not cached, not framed, no scripts, no referrer leaking the query. */
export function sendPage(res: Response, status: number, html: string, headers: Record<string, string> = {}): void {
  res
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      Pragma: 'no-cache',
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Content-Security-Policy':
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
      ...headers,
    })
    .send(html);
}

export type LoginPageModel = {
  appName: string;
  /** the sealed authorization request (hidden field) */
  request: string;
  /** CSRF token bound to the pre-login cookie (hidden field) */
  csrf: string;
  username?: string;
  error?: string;
};

export function loginPage(m: LoginPageModel): string {
  const error = m.error ? `<div class="error" role="alert" id="login-error">${escapeHtml(m.error)}</div>` : '';
  return layout(
    'Sign in',
    `<h1>Sign in</h1>
<p>to continue to <strong>${escapeHtml(m.appName)}</strong></p>
${error}
<form method="post" action="${LOGIN_PATH}" autocomplete="on">
<input type="hidden" name="request" value="${escapeHtml(m.request)}">
<input type="hidden" name="csrf" value="${escapeHtml(m.csrf)}">
<label for="username">Username</label>
<input type="text" id="username" name="username" autocomplete="username" autocapitalize="none" spellcheck="false" required value="${escapeHtml(m.username ?? '')}"${m.error ? ' aria-describedby="login-error"' : ''}>
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`,
  );
}

export function errorPage(title: string, message: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1>\n<p role="alert">${escapeHtml(message)}</p>`);
}

export function signedOutPage(): string {
  return layout('Signed out', '<h1>Signed out</h1>\n<p>You have been signed out. You may close this window.</p>');
}

/**
 * Where the demo clients' redirect URI lands after a browser login on a fresh `npm start`: shows the code
 * and how to redeem it, so the first login ends somewhere useful.
 */
export function demoCallbackPage(m: { code?: string; state?: string; error?: string; tokenEndpoint: string }): string {
  if (m.error !== undefined || m.code === undefined) {
    return layout(
      'Demo callback',
      `<h1>Demo callback</h1>\n<p role="alert">No code: ${escapeHtml(m.error ?? 'the request carried none')}</p>`,
    );
  }
  const curl = `curl -u 'demo-client:<secret>' -d grant_type=authorization_code -d code=${m.code} -d redirect_uri=<this page's URL> ${m.tokenEndpoint}`;
  return layout(
    'Demo callback',
    `<h1>Signed in</h1>
<p>The authorization server redirected here with a one-time code (valid a few minutes).</p>
<dl><dt>code</dt><dd><code>${escapeHtml(m.code)}</code></dd><dt>state</dt><dd><code>${escapeHtml(m.state ?? '')}</code></dd></dl>
<p>Redeem it at the token endpoint, for example:</p>
<pre>${escapeHtml(curl)}</pre>`,
  );
}
