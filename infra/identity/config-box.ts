import { createKeyedSecretBox, type KeyedSecretBox } from '../../commands/core/secret.box.ts';
import type { Config } from '../core/config.ts';
import { loadKeySecrets } from './key-secret.ts';

/**
 * The box that seals configuration-center secret values and the hub's signing secrets, under the
 * key-encryption secret and the ones it replaced (KEY_ENCRYPTION_SECRET_PREVIOUS). Lazy: the secrets are read on first use, so a
 * process that never touches a secret value never creates DATA_DIR/key-encryption.secret for it. Every
 * service reading the configuration center (bridge, hub) takes this one.
 */
export function lazyConfigBox(config: Config): KeyedSecretBox {
  let box: KeyedSecretBox | undefined;
  const open = (): KeyedSecretBox => (box ??= createKeyedSecretBox(loadKeySecrets(config)));
  return {
    get kid() {
      return open().kid;
    },
    seal: (clear, aad) => open().seal(clear, aad),
    open: (sealed, aad) => open().open(sealed, aad),
    kidOf: (sealed) => open().kidOf(sealed),
  };
}
