import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';

/**
 * Status messages (toasts) announced to screen readers: `notify({ kind, text })` from anywhere below
 * <StatusProvider>. Success and info go to a polite live region, errors to an assertive one; each message
 * stays a few seconds and can be dismissed.
 */
export type StatusKind = 'success' | 'info' | 'error';
type Message = { id: number; kind: StatusKind; text: string };
type Notify = (m: { kind?: StatusKind; text: string }) => void;

const StatusContext = createContext<Notify>(() => undefined);

export const useStatus = (): Notify => useContext(StatusContext);

export function StatusProvider({ children }: { children: ReactNode }) {
  const [messages, setMessages] = useState<Message[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setMessages((ms) => ms.filter((m) => m.id !== id)), []);
  const notify = useCallback<Notify>(
    ({ kind = 'success', text }) => {
      const id = next.current++;
      setMessages((ms) => [...ms.slice(-4), { id, kind, text }]);
      setTimeout(() => dismiss(id), kind === 'error' ? 10_000 : 5_000);
    },
    [dismiss],
  );
  const value = useMemo(() => notify, [notify]);
  const region = (kinds: StatusKind[]) =>
    messages
      .filter((m) => kinds.includes(m.kind))
      .map((m) => (
        <div key={m.id} className={`toast toast-${m.kind}`}>
          <span>{m.text}</span>
          <button type="button" className="toast-close" aria-label="Dismiss message" onClick={() => dismiss(m.id)}>
            ×
          </button>
        </div>
      ));
  return (
    <StatusContext.Provider value={value}>
      {children}
      <div className="toasts">
        <div role="status" aria-live="polite">
          {region(['success', 'info'])}
        </div>
        <div role="alert" aria-live="assertive">
          {region(['error'])}
        </div>
      </div>
    </StatusContext.Provider>
  );
}
