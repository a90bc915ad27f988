import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createSnapshots } from '../../../commands/hub/snapshots.ts';
import type { SnapshotContent } from '../../../domain/hub/snapshot.ts';
import { createSqliteEventStore, type SqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';

type Ctx = { dir: string; store: SqliteEventStore };
const test = suite<Ctx>('hub snapshots: content-addressed, the id kept per set of configuration objects', {} as Ctx);

test.before.each((ctx) => {
  ctx.dir = mkdtempSync(path.join(tmpdir(), 'snapshots-'));
  ctx.store = createSqliteEventStore({ file: path.join(ctx.dir, 'events.sqlite') });
});
test.after.each(async (ctx) => {
  await ctx.store.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

const now = '2026-11-26T10:00:00.000Z';
const definition = { DefinitionId: 'd1', NotificationCode: 'notice', Version: 1 };
const rule = (id: string, template: string) => ({
  RuleId: id,
  TemplateCode: template,
  Channel: 'WEBHOOK',
  ServiceId: 's1',
});
/** a configuration as the cache hands it out: plain objects (the shapes matter only to the hash) */
const content = (rules: unknown[]) =>
  ({
    Definition: definition,
    Rules: rules,
    Templates: [{ TemplateId: 't1', Body: 'Hello' }],
    Services: [{ ServiceId: 's1' }],
    Channels: [{ Code: 'WEBHOOK' }],
  }) as unknown as SnapshotContent;

test('the same objects give the same id; a changed part a new one; equal content in new objects the same id again', async ({
  store,
}) => {
  const snapshots = createSnapshots({ eventStore: store });
  const rules = [rule('r1', 'welcome')];
  const first = content(rules);
  const ctx = { tenant: 't1' };
  const id = await snapshots.ensure(first, first.Definition, now, ctx);
  assert.match(id, /^snap-[0-9a-f]{32}$/);
  assert.is(await snapshots.ensure(content(rules), first.Definition, now, ctx), id, 'same parts, new content object');
  const changed = content([rule('r1', 'goodbye')]);
  const other = await snapshots.ensure(changed, changed.Definition, now, ctx);
  assert.is.not(other, id, 'a rule changed: another snapshot');
  // the parts as a fresh read would give them: other objects, equal content
  const copy = JSON.parse(JSON.stringify(first)) as SnapshotContent;
  assert.is(await snapshots.ensure(copy, copy.Definition, now, ctx), id, 'content-addressed, whatever the objects');
  assert.is(await snapshots.ensure(content(rules), first.Definition, now, ctx), id, 'and the first parts still');
  assert.equal((await snapshots.get('t1', id))?.Content, first);
  assert.equal((await snapshots.get('t1', other))?.Content.Rules, changed.Rules);
  const captured = (await store.readAll({}))
    .filter((e) => e.type === 'SnapshotCaptured')
    .map((e) => (e.data as { SnapshotId: string }).SnapshotId);
  assert.equal(captured.sort(), [id, other].sort(), 'each content captured once');
});

test.run();
