import { useState } from 'react';
import { useStatus } from './status.tsx';

/** Copies a value (a secret shown once, an id) to the clipboard and says so. */
export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const notify = useStatus();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      notify({ kind: 'success', text: 'Copied to the clipboard' });
      setTimeout(() => setCopied(false), 2000);
    } catch {
      notify({ kind: 'error', text: 'The browser did not allow copying: select the value and copy it by hand' });
    }
  };
  return (
    <button type="button" className="button button-small" onClick={copy}>
      {copied ? 'Copied' : label}
    </button>
  );
}
