// Import locks and the import's idempotency (Idempotency-Key = import id) through the whole platform: a
// resent import must really decide its locks (a lock another import holds answers 409 IMPORT.LOCKED even
// when the same key imported before), its locks are really released again, and an import stopped by a
// concurrent admin edit (IMPORT.INCOMPLETE) completes when the same bundle is imported again.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createConfigCommands } from '../../../commands/hub/config.commands.ts';
import { createConfigBundle } from '../../../commands/hub/config-bundle.commands.ts';
import { createDriverRegistry } from '../../../commands/hub/driver.registry.ts';
import { createConfigQueries } from '../../../projections/hub/config.projection.ts';
import { HUB, type HubPlatform, startHubPlatform } from './hub-harness.ts';

let p: HubPlatform;
const spec = (tenant: string) => ({ tenant, actor: 'spec' });

/** another process's import machinery on the same stores; `config` may wrap the configuration writes */
function otherProcess(
  wrap: (c: ReturnType<typeof createConfigCommands>) => ReturnType<typeof createConfigCommands> = (c) => c,
) {
  const { eventStore, readStore } = p.platform.stores;
  const config = createConfigCommands({
    eventStore,
    clock: p.clock,
    drivers: createDriverRegistry([]),
    sealer: () => ({ seal: (s) => s, open: (s) => s }),
  });
  return {
    config,
    bundle: createConfigBundle({
      eventStore,
      clock: p.clock,
      config: wrap(config),
      queries: createConfigQueries(readStore),
      drivers: createDriverRegistry([]),
    }),
  };
}

test.before(async () => {
  p = await startHubPlatform();
});
test.after(async () => {
  await p.platform.stop();
});

test('a resent import (same Idempotency-Key) while another import holds the lock answers 409 IMPORT.LOCKED and writes nothing; its locks are released after', async () => {
  const t = await p.token('acme');
  const headers = { 'idempotency-key': 'bundle-K' };
  const first = { Module: 'commhub', FormatVersion: 1, Channels: [{ Code: 'PAGER', Enabled: true }] };
  const done = await p.call('POST', `${HUB}/configuration-bundle/import`, { token: t, body: first, headers });
  assert.is(done.status, 200, JSON.stringify(done.body));
  assert.is(done.body.ImportId, 'bundle-K');

  const other = otherProcess();
  await other.bundle.locks.acquire(['channels'], 'import-L', spec('acme'));
  const resent = await p.call('POST', `${HUB}/configuration-bundle/import`, {
    token: t,
    body: { ...first, Channels: [{ Code: 'PAGER', Enabled: true, Description: 'changed' }] },
    headers,
  });
  assert.is(resent.status, 409, JSON.stringify(resent.body));
  assert.is(resent.body.code, 'IMPORT.LOCKED');
  assert.equal([resent.body.details.Group, resent.body.details.HeldBy], ['channels', 'import-L']);
  assert.is(
    (await p.call('GET', `${HUB}/channels/PAGER`, { token: t })).body.Description,
    undefined,
    "nothing written under L's lock",
  );
  // L still holds it: the refused import released nothing of L's
  const m = await otherProcess()
    .bundle.locks.acquire(['channels'], 'import-M', spec('acme'))
    .then(
      () => 'taken',
      (e: { code: string }) => e.code,
    );
  assert.is(m, 'IMPORT.LOCKED');
  await other.bundle.locks.release(['channels'], 'import-L', spec('acme'));

  // resent once more, the lock free: it imports, and it leaves the lock free (its release really decided)
  const again = await p.call('POST', `${HUB}/configuration-bundle/import`, { token: t, body: first, headers });
  assert.is(again.status, 200, JSON.stringify(again.body));
  await other.bundle.locks.acquire(['channels'], 'import-N', spec('acme'));
  await other.bundle.locks.release(['channels'], 'import-N', spec('acme'));
});

test('an import stopped by a concurrent admin edit (409 IMPORT.INCOMPLETE) completes when the same bundle is imported again with the same key, and frees its locks', async () => {
  let interfere = true;
  // an admin creates the channel through the admin API between the import's dry run and its write
  const { bundle } = otherProcess((c) => ({
    ...c,
    channels: {
      ...c.channels,
      create: async (
        x: Parameters<typeof c.channels.create>[0],
        ctx: Parameters<typeof c.channels.create>[1],
        id: string,
      ) => {
        if (interfere) {
          interfere = false;
          await c.channels.create(
            { Code: x.Code, Enabled: false, Description: 'by the admin' },
            spec(ctx.tenant),
            `admin/${x.Code}`,
          );
        }
        return c.channels.create(x, ctx, id);
      },
    },
  }));
  const body = {
    Module: 'commhub',
    FormatVersion: 1,
    Channels: [
      { Code: 'ALPHA', Enabled: true },
      { Code: 'BETA', Enabled: true },
    ],
  };
  const stopped = await bundle
    .import(body, spec('acme'), 'bundle-I')
    .catch((e: unknown) => e as { code: string; details: { Stopped: { Id: string } } });
  assert.is((stopped as { code: string }).code, 'IMPORT.INCOMPLETE');
  assert.is((stopped as { details: { Stopped: { Id: string } } }).details.Stopped.Id, 'ALPHA');

  const completed = await bundle.import(body, spec('acme'), 'bundle-I');
  assert.equal(completed.Resources, [
    { Section: 'Channels', Id: 'ALPHA', Action: 'UPDATE' },
    { Section: 'Channels', Id: 'BETA', Action: 'CREATE' },
  ]);
  const t = await p.token('acme');
  assert.is((await p.call('GET', `${HUB}/channels/ALPHA`, { token: t })).body.Enabled, true);
  assert.is((await p.call('GET', `${HUB}/channels/BETA`, { token: t })).status, 200);
  // the locks are free again (an import with another key takes them)
  await otherProcess().bundle.locks.acquire(['channels'], 'after-I', spec('acme'));
  await otherProcess().bundle.locks.release(['channels'], 'after-I', spec('acme'));
});

test.run();
