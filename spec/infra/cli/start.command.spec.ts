// The start banner's health line names the address this process is bound to; a wildcard bind (HOST=0.0.0.0
// or ::) is named by the loopback address, which it includes and a probe on the host can reach.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { reachableUrl } from '../../../infra/cli/start.command.ts';

test('the bound URL as it is, a wildcard address as loopback', () => {
  assert.is(reachableUrl('http://127.0.0.1:8081'), 'http://127.0.0.1:8081');
  assert.is(reachableUrl('http://10.1.2.3:8081'), 'http://10.1.2.3:8081');
  assert.is(reachableUrl('http://0.0.0.0:8081'), 'http://127.0.0.1:8081');
  assert.is(reachableUrl('http://[::]:8081'), 'http://[::1]:8081');
  assert.is(reachableUrl('http://[fe80::1]:8081'), 'http://[fe80::1]:8081');
});

test.run();
