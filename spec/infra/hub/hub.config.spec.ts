import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError } from '../../../infra/core/config.ts';
import { loadHubConfig } from '../../../infra/hub/hub.config.ts';

const platform = { publicBaseUrl: 'http://127.0.0.1:8080' };

test('the inline dispatch bound follows HUB_DISPATCH_CONCURRENCY (2 ×) unless set itself', () => {
  assert.is(loadHubConfig({}, platform).dispatchConcurrency, 32);
  assert.is(loadHubConfig({}, platform).inlineDispatchConcurrency, 64);
  // an operator sparing a slow receiver throttles both ways of dispatching with the one setting
  assert.is(loadHubConfig({ HUB_DISPATCH_CONCURRENCY: '2' }, platform).inlineDispatchConcurrency, 4);
  assert.is(
    loadHubConfig({ HUB_DISPATCH_CONCURRENCY: '2', HUB_INLINE_DISPATCH_CONCURRENCY: '0' }, platform)
      .inlineDispatchConcurrency,
    0,
  );
  assert.throws(
    () => loadHubConfig({ HUB_INLINE_DISPATCH_CONCURRENCY: '-1' }, platform),
    (e: unknown) => e instanceof ConfigError && /HUB_INLINE_DISPATCH_CONCURRENCY/.test(e.message),
  );
});

test.run();
