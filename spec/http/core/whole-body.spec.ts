// No handler runs on a request whose body did not arrive whole. Raw sockets against the
// whole platform: POST /cas/exchange-code/get with a valid bearer token and a malformed chunked body (chunk
// size `zz`) must not issue a code, whatever the Content-Type, and whether the bad chunk comes with the
// headers or later; a well-formed chunked body no parser reads is read to its end before it is answered.
import net from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SEED, startIdentityPlatform } from '../identity/identity-harness.ts';

const ctx = await startIdentityPlatform({ redirectUri: 'https://rp.example/callback' });
const test = suite('whole bodies');
test.after(() => ctx.stop());

const basic = `Basic ${Buffer.from(`${encodeURIComponent(SEED.clientId)}:${encodeURIComponent(SEED.clientSecret)}`).toString('base64')}`;
const tokenRes = await fetch(`${ctx.base}/cas/oidc/token`, {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
  body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'identity:admin' }),
});
const token = ((await tokenRes.json()) as { access_token: string }).access_token;
const { hostname, port } = new URL(ctx.base);

/** sends `parts` (the first right away, each next one once the server had a moment), answers what came back */
function raw(parts: string[]): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.on('close', () => resolve(answer));
    socket.on('error', () => undefined);
    socket.on('connect', async () => {
      for (const [i, part] of parts.entries()) {
        if (i > 0) await new Promise((r) => setTimeout(r, 50));
        if (socket.writable) socket.write(part);
      }
    });
    setTimeout(() => socket.end(), 1500).unref();
  });
}

const head = (correlationId: string, contentType?: string) =>
  `POST /cas/exchange-code/get HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${token}\r\n` +
  `${contentType === undefined ? '' : `Content-Type: ${contentType}\r\n`}Transfer-Encoding: chunked\r\nX-Correlation-Id: ${correlationId}\r\nConnection: close\r\n\r\n`;

async function codesIssuedFor(correlationId: string): Promise<number> {
  const events = await ctx.platform.stores.eventStore.readAll({ filter: { eventTypes: ['ExchangeCodeIssued'] } });
  return events.filter((e) => e.metadata.correlationId === correlationId).length;
}

for (const contentType of [undefined, 'application/json', 'application/x-www-form-urlencoded', 'text/plain']) {
  test(`a malformed chunk with the headers (Content-Type ${contentType ?? 'none'}): 400, no code`, async () => {
    const id = `bad-now-${(contentType ?? 'none').replace(/\W/g, '-')}`;
    const answer = await raw([`${head(id, contentType)}zz\r\n{}\r\n0\r\n\r\n`]);
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.is(await codesIssuedFor(id), 0);
  });

  test(`a malformed chunk after a good one, a moment later (Content-Type ${contentType ?? 'none'}): no code`, async () => {
    const id = `bad-later-${(contentType ?? 'none').replace(/\W/g, '-')}`;
    const answer = await raw([`${head(id, contentType)}1\r\n{\r\n`, 'zz\r\n}\r\n0\r\n\r\n']);
    assert.not.match(answer, /"code":"[A-Za-z0-9_-]{20,}"/, 'no code in any answer');
    assert.is(await codesIssuedFor(id), 0);
  });
}

test('a well-formed chunked body that no parser reads: read to its end, then answered 415 (the route takes JSON), no code', async () => {
  const answer = await raw([`${head('good-text', 'text/plain')}5\r\nhello\r\n`, '0\r\n\r\n']);
  assert.match(answer, /^HTTP\/1\.1 415 /);
  assert.match(answer, /REQUEST\.UNSUPPORTED_MEDIA_TYPE/);
  assert.is(await codesIssuedFor('good-text'), 0);
});

test('a well-formed chunked JSON body: the code is issued', async () => {
  const answer = await raw([`${head('good-json', 'application/json')}2\r\n{}\r\n0\r\n\r\n`]);
  assert.match(answer, /^HTTP\/1\.1 200 /);
  assert.is(await codesIssuedFor('good-json'), 1);
});

test.run();
