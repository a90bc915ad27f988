import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { batches } from '../../../domain/core/async-batches.ts';
import { eventually } from '../../core/eventually.ts';

test('items already available are grouped up to maxSize', async () => {
  async function* source() {
    for (let i = 0; i < 7; i++) yield i;
  }
  const out: number[][] = [];
  for await (const b of batches(source(), 3)) out.push(b);
  assert.equal(out, [[0, 1, 2], [3, 4, 5], [6]]);
});

test('an item that arrives later starts a new batch; nothing is lost or reordered', async () => {
  async function* source() {
    yield 1;
    yield 2;
    await new Promise((r) => setTimeout(r, 20));
    yield 3;
  }
  const out: number[][] = [];
  for await (const b of batches(source(), 10)) out.push(b);
  assert.equal(out, [[1, 2], [3]]);
});

test('a busy consumer holds the source back: nothing is read ahead beyond the next item', async () => {
  let produced = 0;
  async function* source() {
    for (let i = 0; i < 100; i++) {
      produced++;
      yield i;
    }
  }
  const seen: number[] = [];
  for await (const b of batches(source(), 2)) {
    const before = produced;
    // several macrotasks of work: a prefetching batcher would drain the ready source meanwhile
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    assert.ok(produced <= before + 1, `read ${produced - before} item(s) ahead while the consumer was busy`);
    seen.push(...b);
    if (seen.length >= 6) break;
  }
  assert.equal(seen, [0, 1, 2, 3, 4, 5]);
});

test('breaking out closes the source', async () => {
  let closed = false;
  async function* source() {
    try {
      for (let i = 0; ; i++) yield i;
    } finally {
      closed = true;
    }
  }
  for await (const b of batches(source(), 4)) {
    assert.equal(b, [0, 1, 2, 3]);
    break;
  }
  await eventually(() => closed, 'the source closed');
});

test.run();
