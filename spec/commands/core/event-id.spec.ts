import { v5 as uuidv5 } from 'uuid';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { derivedId, eventIdFor, newCommandId, PLATFORM_NAMESPACE } from '../../../commands/core/event-id.ts';

// Stored logs hold these ids: they must stay byte for byte what the uuid package's v5 gave before.
test('derived ids are the uuid package v5 ids of the same names in the platform namespace', () => {
  // the first long name is multi-byte: it alone makes the reused buffer grow (a bound too small would cut it)
  const names = [
    '',
    'a',
    'cmd-1/0',
    'cmd-1/account-7/3',
    'ünïcødé/名前/🙂',
    '名'.repeat(400),
    'x'.repeat(5000),
    '名'.repeat(2000),
    '🙂'.repeat(1500),
    'a',
    'bridge/delivery/tenant.rule.target/evt-9',
  ];
  for (const name of names) assert.is(derivedId(name), uuidv5(name, PLATFORM_NAMESPACE), name.slice(0, 40));
  for (let i = 0; i < 500; i++) {
    const command = `command-${i * 7919}`;
    assert.is(eventIdFor(command, i % 5), uuidv5(`${command}/${i % 5}`, PLATFORM_NAMESPACE));
    assert.is(eventIdFor(command, i % 5, `stream-${i}`), uuidv5(`${command}/stream-${i}/${i % 5}`, PLATFORM_NAMESPACE));
  }
});

test('derived ids are RFC 9562 version 5, variant 10', () => {
  const id = eventIdFor('c', 0);
  assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

test('names with a lone surrogate are refused rather than folded into one id', () => {
  assert.throws(() => derivedId('k\ud800'), /lone surrogate/);
  assert.throws(() => eventIdFor('c\udfff', 0), /lone surrogate/);
  assert.is(derivedId('k\ud83d\ude42'), uuidv5('k\ud83d\ude42', PLATFORM_NAMESPACE)); // a pair is fine
});

test('a command id made by newCommandId gives time-ordered version 8 ids, derived and distinct', () => {
  const commands = Array.from({ length: 2000 }, () => newCommandId());
  const ids = commands.flatMap((c) => [
    eventIdFor(c, 0),
    eventIdFor(c, 1),
    eventIdFor(c, 0, 's-1'),
    eventIdFor(`${c}/3`, 0),
    eventIdFor(`attempt/${c}`, 0),
  ]);
  for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.is(new Set(ids).size, ids.length, 'every event of every command has its own id');
  // the command's milliseconds come first: events sort by the millisecond their commands were made in
  const millis = ids.map((id) => id.slice(0, 13));
  assert.equal([...millis].sort(), millis);
  assert.ok(new Set(millis).size > 1 || commands[0]!.slice(0, 13) === commands[1999]!.slice(0, 13));
  assert.is(eventIdFor(commands[0]!, 0).slice(0, 13), commands[0]!.slice(0, 13));
  // derived: the same command, index and stream give the same id; the tail is the name's version 5 hash
  assert.is(eventIdFor(commands[7]!, 2, 'x'), eventIdFor(commands[7]!, 2, 'x'));
  assert.is(
    eventIdFor(commands[7]!, 2, 'x').slice(15),
    uuidv5(`${commands[7]}/x/2`, PLATFORM_NAMESPACE).slice(15),
    'after the milliseconds and the version: the v5 hash',
  );
  // an upper-case command id still gives a lower-case id with the same milliseconds
  assert.is(eventIdFor(commands[9]!.toUpperCase(), 0).slice(0, 13), eventIdFor(commands[9]!, 0).slice(0, 13));
  // a client's key that starts with a v7 chooses the milliseconds only: the rest is the hash of the whole key
  const chosen = '01a21941-3055-76df-8000-000000000000';
  assert.is(eventIdFor(`${chosen}/a`, 0).slice(15), uuidv5(`${chosen}/a/0`, PLATFORM_NAMESPACE).slice(15));
});

test('a command id that only looks like a UUID of another version keeps its version 5 ids', () => {
  const v4 = '3b241101-e2bb-4255-8caf-4136c566a962';
  assert.is(eventIdFor(v4, 0), uuidv5(`${v4}/0`, PLATFORM_NAMESPACE));
  assert.is(eventIdFor(`x${newCommandId()}`, 0).charAt(14), '5');
  assert.is(eventIdFor(`a/b/${newCommandId()}`, 0).charAt(14), '5', 'only the first two segments are looked at');
});

test.run();
