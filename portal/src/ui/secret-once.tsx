import { type ReactNode, useEffect, useId, useRef } from 'react';
import { CopyButton } from './copy-button.tsx';
import '../styles/secret-once.css';

/**
 * A secret the API answered this once (a client's registration or rotation, a webhook signing secret):
 * shown with a copy button until the page is left or Done is pressed. It lives only in the caller's
 * state, never in the query cache, the URL or storage. `note` says what the platform keeps of it and how
 * a lost one is replaced.
 */
export function SecretOnce(props: {
  title: string;
  secret: string;
  note: ReactNode;
  onDone: () => void;
  /** the value's test id (the browser specs find the secret by it) */
  testId?: string;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const titleId = useId();
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="secret-once" aria-labelledby={titleId}>
      <h2 id={titleId} ref={heading} tabIndex={-1}>
        {props.title}
      </h2>
      <p>
        <strong>Copy it now: you will not see it again.</strong> {props.note}
      </p>
      <div className="secret-value">
        <code data-testid={props.testId ?? 'secret-value'}>{props.secret}</code>
        <CopyButton value={props.secret} label="Copy secret" />
      </div>
      <button type="button" className="button" onClick={props.onDone}>
        Done, I have copied it
      </button>
    </section>
  );
}
