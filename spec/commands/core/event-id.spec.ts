import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { v5 as uuidv5 } from 'uuid';
import { derivedId, eventIdFor, PLATFORM_NAMESPACE } from '../../../commands/core/event-id.ts';

// Stored logs hold these ids: they must stay byte for byte what the uuid package's v5 gave before.
test('derived ids are the uuid package v5 ids of the same names in the platform namespace', () => {
  const names = ['', 'a', 'cmd-1/0', 'cmd-1/account-7/3', 'ünïcødé/名前/🙂', 'x'.repeat(5000), 'bridge/delivery/tenant.rule.target/evt-9'];
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

test.run();
