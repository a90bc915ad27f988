// IP parsing and block membership, cross-checked against Node's own parser (net.isIP) and net.BlockList.
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { blockContains, parseCidr, parseIp, parseIpAddress } from '../../../../domain/bridge/pattern/ip.address.ts';
import type { IpBlock } from '../../../../domain/bridge/pattern/pattern.types.ts';

const test = suite('ip addresses');
const options = { seed: 7, numRuns: 500 };

test('IPv4 is stored IPv4-mapped', () => {
  assert.equal(parseIp('10.0.0.1'), { address: [0, 0, 0, 0, 0, 0xffff, 0x0a00, 0x0001], family: 4 });
  assert.equal(parseIpAddress('::ffff:10.0.0.1'), parseIpAddress('10.0.0.1'));
  assert.equal(parseIpAddress('::ffff:a00:1'), parseIpAddress('10.0.0.1'));
});

test('IPv6 text forms', () => {
  assert.equal(parseIpAddress('::'), [0, 0, 0, 0, 0, 0, 0, 0]);
  assert.equal(parseIpAddress('::1'), [0, 0, 0, 0, 0, 0, 0, 1]);
  assert.equal(parseIpAddress('1::'), [1, 0, 0, 0, 0, 0, 0, 0]);
  assert.equal(parseIpAddress('2001:DB8::8:800:200C:417A'), [0x2001, 0xdb8, 0, 0, 0x8, 0x800, 0x200c, 0x417a]);
  assert.equal(parseIpAddress('1:2:3:4:5:6:7::'), [1, 2, 3, 4, 5, 6, 7, 0]);
  assert.equal(parseIpAddress('64:ff9b::192.0.2.33'), [0x64, 0xff9b, 0, 0, 0, 0, 0xc000, 0x0221]);
});

const VALID = [
  '0.0.0.0',
  '255.255.255.255',
  '1.2.3.4',
  '::',
  '::1',
  '1::',
  '::ffff:1.2.3.4',
  '1:2:3:4:5:6:7:8',
  '1:2:3:4:5:6:1.2.3.4',
  'fe80::1:2',
  'ABCD:ef01::',
];
const INVALID = [
  '',
  '1.2.3',
  '1.2.3.4.5',
  '256.0.0.1',
  '01.2.3.4',
  '1.2.3.-4',
  '1.2.3.4 ',
  'a.b.c.d',
  ':',
  ':::',
  '1:::2',
  '1::2::3',
  '1:2:3:4:5:6:7:8:9',
  '12345::',
  'g::1',
  '1.2.3.4::',
  '::1.2.3',
  'fe80::1%eth0',
  '::ffff:1.2.3.256',
  '1:2:3:4:5:6:7:1.2.3.4',
];

test('agrees with net.isIP on common valid and invalid forms', () => {
  for (const s of VALID) {
    assert.ok(parseIp(s), `rejected ${s}`);
    assert.ok(isIPv4(s) || isIPv6(s), `node rejects ${s}`);
  }
  for (const s of INVALID) {
    assert.is(parseIp(s), undefined, `accepted ${s}`);
    if (!s.includes('%')) assert.not.ok(isIPv4(s) || isIPv6(s), `node accepts ${s}`);
  }
});

test('every address fast-check generates parses, as node agrees', () => {
  fc.assert(
    fc.property(fc.oneof(fc.ipV4(), fc.ipV6()), (s) => {
      assert.ok(parseIp(s), s);
    }),
    options,
  );
});

const family = (b: IpBlock) => (b.prefixLength >= 96 && b.address.slice(0, 6).join() === '0,0,0,0,0,65535' ? 4 : 6);

test('block membership agrees with net.BlockList within a family', () => {
  const v4 = fc.tuple(fc.ipV4(), fc.integer({ min: 0, max: 32 }), fc.ipV4());
  const v6 = fc.tuple(fc.ipV6(), fc.integer({ min: 0, max: 128 }), fc.ipV6());
  fc.assert(
    fc.property(
      fc.oneof(
        v4.map((t) => [...t, 'ipv4'] as const),
        v6.map((t) => [...t, 'ipv6'] as const),
      ),
      ([net, len, addr, type]) => {
        const block = parseCidr(`${net}/${len}`);
        if (typeof block === 'string') throw new Error(block);
        const list = new BlockList();
        list.addSubnet(net, len, type);
        const address = parseIpAddress(addr);
        assert.ok(address);
        if (type === 'ipv6' && family(block) === 4) return; // mapped blocks: our one-space rule, checked below
        assert.is(blockContains(block, address), list.check(addr, type), `${net}/${len} ∋ ${addr}`);
      },
    ),
    options,
  );
});

test('a block always contains its own network address and the bare address is /32 or /128', () => {
  const b = parseCidr('10.0.0.7');
  assert.equal(b, { address: [0, 0, 0, 0, 0, 0xffff, 0x0a00, 7], prefixLength: 128 });
  assert.equal(parseCidr('2001:db8::1'), { address: [0x2001, 0xdb8, 0, 0, 0, 0, 0, 1], prefixLength: 128 });
  assert.equal(parseCidr('10.1.2.3/8'), { address: [0, 0, 0, 0, 0, 0xffff, 0x0a00, 0], prefixLength: 104 });
});

test('one address space: IPv4-mapped blocks and addresses are their IPv4 selves', () => {
  const mapped = parseCidr('::ffff:10.0.0.0/104');
  const plain = parseCidr('10.0.0.0/8');
  assert.equal(mapped, plain);
  const all = parseCidr('::/0');
  if (typeof all === 'string') throw new Error(all);
  assert.ok(blockContains(all, parseIpAddress('1.2.3.4') ?? []));
});

test.run();
