// cidr: IPv4 and IPv6 blocks, a bare address is one address, IPv4-mapped IPv6 is the IPv4 address; strings only.
import { suite } from 'uvu';
import { matches, misses } from './expect.ts';

const test = suite('pattern: cidr');
const cidr = (c: string) => ({ ip: [{ cidr: c }] });

test('IPv4 blocks', () => {
  matches(cidr('10.0.0.0/24'), { ip: '10.0.0.251' });
  misses(cidr('10.0.0.0/24'), { ip: '10.0.2.251' });
  matches(cidr('10.0.0.0/22'), { ip: '10.0.3.240' });
  misses(cidr('10.0.0.0/22'), { ip: '10.0.4.12' });
  matches(cidr('0.0.0.0/0'), { ip: '255.255.255.255' });
  matches(cidr('10.0.0.0/8'), { ip: '10.255.0.1' });
});

test('host bits past the prefix are ignored', () => {
  matches(cidr('220.160.153.171/31'), { ip: '220.160.153.170' });
  misses(cidr('220.160.153.171/31'), { ip: '220.160.153.172' });
});

test('a bare address is a single address (/32, /128)', () => {
  matches(cidr('10.0.0.1'), { ip: '10.0.0.1' });
  misses(cidr('10.0.0.1'), { ip: '10.0.0.251' });
  matches(cidr('2001:db8::1'), { ip: '2001:0DB8:0000:0000:0000:0000:0000:0001' });
  misses(cidr('2001:db8::1'), { ip: '2001:db8::2' });
});

test('IPv6 blocks, any text form of the address', () => {
  matches(cidr('2001:db8::/32'), { ip: '2001:db8:ffff::1' });
  misses(cidr('2001:db8::/32'), { ip: '2001:db9::1' });
  matches(cidr('2400:6500:FF00::36FB:1F80/122'), { ip: '2400:6500:ff00::36fb:1f89' });
  matches(cidr('fe80::/10'), { ip: 'febf::1' });
  matches(cidr('::/127'), { ip: '::1' });
});

test('IPv4-mapped IPv6 is the IPv4 address, in events and in patterns', () => {
  matches(cidr('10.0.0.0/8'), { ip: '::ffff:10.1.2.3' });
  matches(cidr('10.0.0.0/8'), { ip: '::FFFF:a01:203' });
  matches(cidr('::ffff:10.0.0.0/104'), { ip: '10.9.9.9' });
  misses(cidr('::ffff:10.0.0.0/104'), { ip: '11.0.0.1' });
  matches(cidr('::ffff:10.0.0.1'), { ip: '10.0.0.1' });
  misses(cidr('10.0.0.0/8'), { ip: '::10.1.2.3' }); // IPv4-compatible (deprecated) is not mapped
});

test('::/0 holds every address, IPv4 included (one address space)', () => {
  matches(cidr('::/0'), { ip: '10.0.0.1' });
  matches(cidr('::/0'), { ip: '2001:db8::1' });
});

test('invalid addresses and non-strings never match', () => {
  misses(cidr('10.0.0.0/24'), { ip: '10.0.0.1234' });
  misses(cidr('10.0.0.0/24'), { ip: '10.0.0' });
  misses(cidr('10.0.0.0/24'), { ip: '010.0.0.1' });
  misses(cidr('10.0.0.0/24'), { ip: ' 10.0.0.1' });
  misses(cidr('10.0.0.0/24'), { ip: '10.0.0.1/32' });
  misses(cidr('0.0.0.0/0'), { ip: 167772161 });
  misses(cidr('::/0'), { ip: 'fe80::1%eth0' });
  misses(cidr('::/0'), {});
});

test('arrays: any element', () => {
  matches(cidr('10.0.0.0/24'), { ip: ['192.168.0.1', '10.0.0.9'] });
});

test.run();
