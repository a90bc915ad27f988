import { type FormEvent, useId, useState } from 'react';
import { api, call } from '../../api/client.ts';
import { fieldProblems, isApiError } from '../../api/errors.ts';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { type ChannelQuietHours, CODE_HINT, type QuietWindow } from './hub-policy-api.ts';

export const MAX_WINDOWS = 10;
const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** what a window means, as the gate reads it (Start after End runs past midnight; End is excluded) */
export function windowMeaning(w: QuietWindow): string {
  if (!HHMM.test(w.Start) || !HHMM.test(w.End)) return 'HH:mm, 00:00 to 23:59';
  if (w.Start === w.End) return 'Start and End must differ';
  return w.Start > w.End
    ? `Overnight: from ${w.Start} until ${w.End} the next morning`
    : `Daily from ${w.Start} until ${w.End}`;
}

type Problems = { channel?: string; windows: Record<number, { Start?: string; End?: string; window?: string }> };

/**
 * The API's problems by place: `Windows[1].Start` (the decider) or `Windows.1.Start` (request validation)
 * go beside window 2's Start; `Windows[1]` beside the window; `Windows` and the channel their own fields.
 */
export function problemsOf(error: unknown): { placed: Problems; rest: Array<{ field: string; message: string }> } {
  const placed: Problems = { windows: {} };
  const rest: Array<{ field: string; message: string }> = [];
  if (!isApiError(error)) return { placed, rest };
  for (const p of fieldProblems(error.details)) {
    const m = /^Windows(?:\[(\d+)\]|\.(\d+))(?:\.(Start|End))?$/.exec(p.field);
    if (m !== null) {
      const i = Number(m[1] ?? m[2]);
      const w = (placed.windows[i] ??= {});
      const part = (m[3] as 'Start' | 'End' | undefined) ?? 'window';
      w[part] ??= p.message;
    } else if (/^channel$/i.test(p.field)) placed.channel ??= p.message;
    else rest.push(p);
  }
  return { placed, rest };
}

/** the first place a refusal names, in the form's order: the channel, then each window's Start and End */
function firstNamed(placed: Problems): 'channel' | [number, keyof QuietWindow] | undefined {
  if (placed.channel !== undefined) return 'channel';
  const first = Object.keys(placed.windows)
    .map(Number)
    .sort((a, b) => a - b)[0];
  if (first === undefined) return undefined;
  return [
    first,
    placed.windows[first]?.Start === undefined && placed.windows[first]?.End !== undefined ? 'End' : 'Start',
  ];
}

/**
 * A channel's windows: 1 to 10 `HH:mm` Start/End pairs, each with what it means (overnight when Start is
 * after End); a refusal is shown beside the window and the part it names, and the input stays.
 */
export function QuietHoursEditor(props: {
  existing?: ChannelQuietHours;
  onSaved: (saved: ChannelQuietHours) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [channel, setChannel] = useState(props.existing?.Channel ?? '');
  const [windows, setWindows] = useState<QuietWindow[]>(props.existing?.Windows ?? [{ Start: '22:00', End: '07:00' }]);
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const { placed, rest } = problemsOf(error);
  const setWindow = (i: number, part: keyof QuietWindow, value: string) =>
    setWindows((ws) => ws.map((w, j) => (j === i ? { ...w, [part]: value } : w)));
  const inputId = (i: number, part: string) => `${id}-w${i}-${part}`;

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    setSaving(true);
    setError(null);
    try {
      const saved = (await call(
        api.hub.PUT('/comm/v1/quiet-hours/{channel}', {
          params: { path: { channel: channel.trim() } },
          body: { Windows: windows },
        }),
      )) as unknown as ChannelQuietHours;
      props.onSaved(saved);
    } catch (err) {
      setError(err);
      // the first control the refusal names (known now, not after the render that marks it), else the summary
      const target = firstNamed(problemsOf(err).placed);
      const targetId =
        target === 'channel' ? `${id}-channel` : target !== undefined ? inputId(target[0], target[1]) : `${id}-summary`;
      setTimeout(() => document.getElementById(targetId)?.focus(), 0);
    } finally {
      setSaving(false);
    }
  };

  const timeInput = (i: number, part: keyof QuietWindow, w: QuietWindow) => {
    const problem = placed.windows[i]?.[part];
    const ids = { input: inputId(i, part), error: inputId(i, `${part}-error`) };
    return (
      <div className={problem !== undefined ? 'field field-invalid' : 'field'}>
        <label htmlFor={ids.input} className="field-label">
          {part} of window {i + 1}
        </label>
        <input
          id={ids.input}
          className="input"
          inputMode="numeric"
          placeholder="HH:mm"
          value={w[part]}
          aria-invalid={problem !== undefined ? true : undefined}
          aria-describedby={`${inputId(i, 'meaning')}${problem !== undefined ? ` ${ids.error}` : ''}`}
          onChange={(e) => setWindow(i, part, e.target.value)}
        />
        {problem !== undefined && (
          <p id={ids.error} className="field-error">
            {part} {problem}
          </p>
        )}
      </div>
    );
  };

  return (
    <form className="form hp-quiet-form" onSubmit={save} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>
        {props.existing === undefined ? 'New quiet hours' : `Quiet hours of ${props.existing.Channel}`}
      </h2>
      {props.existing === undefined && (
        <div className={placed.channel !== undefined ? 'field field-invalid' : 'field'}>
          <label htmlFor={`${id}-channel`} className="field-label">
            Channel<span aria-hidden="true"> *</span>
          </label>
          <p id={`${id}-channel-hint`} className="field-hint">
            {CODE_HINT}
          </p>
          <input
            id={`${id}-channel`}
            className="input"
            value={channel}
            required
            aria-invalid={placed.channel !== undefined ? true : undefined}
            aria-describedby={`${id}-channel-hint${placed.channel !== undefined ? ` ${id}-channel-error` : ''}`}
            onChange={(e) => setChannel(e.target.value)}
          />
          {placed.channel !== undefined && (
            <p id={`${id}-channel-error`} className="field-error">
              {placed.channel}
            </p>
          )}
        </div>
      )}
      <ul className="hp-windows" aria-label="Windows">
        {windows.map((w, i) => {
          const whole = placed.windows[i]?.window;
          const bad = placed.windows[i] !== undefined;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: a window has no identity but its place in the list
            <li key={i} className={bad ? 'hp-window field-invalid' : 'hp-window'}>
              {timeInput(i, 'Start', w)}
              {timeInput(i, 'End', w)}
              <p id={inputId(i, 'meaning')} className="hp-window-meaning">
                {windowMeaning(w)}
              </p>
              <button
                type="button"
                className="button button-small"
                disabled={windows.length === 1}
                onClick={() => setWindows((ws) => ws.filter((_, j) => j !== i))}
              >
                Remove window {i + 1}
              </button>
              {whole !== undefined && (
                <p className="field-error hp-window-error">
                  Window {i + 1}: {whole}
                </p>
              )}
            </li>
          );
        })}
      </ul>
      <div>
        <button
          type="button"
          className="button"
          disabled={windows.length >= MAX_WINDOWS}
          onClick={() => setWindows((ws) => [...ws, { Start: '', End: '' }])}
        >
          Add a window
        </button>
      </div>
      {error !== null && (
        <div id={`${id}-summary`} tabIndex={-1} className="form-summary">
          <ApiErrorView error={error} title="Not saved" />
          {rest.length > 0 && (
            <ul className="form-problems">
              {rest.map((p) => (
                <li key={`${p.field}:${p.message}`}>
                  <code>{p.field}</code> {p.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save quiet hours'}
        </button>
        <button type="button" className="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
