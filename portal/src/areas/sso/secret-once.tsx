import { useEffect, useRef } from 'react';
import { CopyButton } from '../../ui/copy-button.tsx';

/**
 * A client secret the API answered this once (registration, rotation): shown with a copy button until
 * the page is left or Done is pressed. It lives only in the page's state, never in the query cache, the
 * URL or storage.
 */
export function SecretOnce({ clientId, secret, onDone }: { clientId: string; secret: string; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="secret-once" aria-labelledby="secret-once-title">
      <h2 id="secret-once-title" ref={heading} tabIndex={-1}>
        Client secret of {clientId}
      </h2>
      <p>
        <strong>Copy it now: you will not see it again.</strong> The platform keeps only its hash; a lost secret is
        replaced by rotating it.
      </p>
      <div className="secret-value">
        <code data-testid="client-secret">{secret}</code>
        <CopyButton value={secret} label="Copy secret" />
      </div>
      <button type="button" className="button" onClick={onDone}>
        Done, I have copied it
      </button>
    </section>
  );
}
