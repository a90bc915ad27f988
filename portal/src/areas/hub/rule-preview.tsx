import { useId, useState } from 'react';
import { api, call } from '../../api/client.ts';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { JsonEditor } from '../../ui/json-editor.tsx';
import { isObject, parseJson, pretty, type RetryPolicy, type RulePreview, shown, typed } from './hub-defs-api.ts';
import { type RuleValues, ruleBodyOf } from './rule-draft.ts';

type SendRecipients = Array<{ Role: string; Channel: string; RecipientId?: string; Address?: string }>;

/**
 * The preview of the rule as it stands in its form (unsaved) against the saved version, on a sample
 * payload (the version's context's own sample to start with): whether the condition parses and matches,
 * the masked recipient, the template, the effective policies with their sources, and what a send would
 * make of the message. Live policies are never evaluated (RuntimeGuardsEvaluated is false).
 */
export function RulePreviewPanel(props: {
  definitionId: string;
  values: RuleValues;
  sample: Record<string, unknown> | undefined;
}) {
  const id = useId();
  const [text, setText] = useState(() => pretty(props.sample ?? {}));
  const [language, setLanguage] = useState('');
  const [recipientsText, setRecipientsText] = useState('');
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<{ preview: RulePreview } | { error: unknown } | null>(null);
  const parsed = parseJson(text);
  const payload = parsed.ok && isObject(parsed.value) ? parsed.value : null;
  // the send's Recipients, which a REQUEST-source rule takes its recipient from
  const recipientsParsed = recipientsText.trim() === '' ? null : parseJson(recipientsText);
  const recipients =
    recipientsParsed === null
      ? []
      : recipientsParsed.ok && Array.isArray(recipientsParsed.value)
        ? recipientsParsed.value
        : null;
  const run = async () => {
    if (payload === null) return;
    setBusy(true);
    try {
      const preview = await typed<RulePreview>(
        call(
          api.hub.POST('/comm/v1/delivery-rules/preview', {
            body: {
              DefinitionId: props.definitionId,
              Rule: ruleBodyOf(props.values),
              SamplePayload: payload,
              ...(language.trim() !== '' && { LanguageId: language.trim() }),
              ...(recipients !== null && recipients.length > 0 && { Recipients: recipients as SendRecipients }),
            },
          }),
        ),
      );
      setAnswer({ preview });
    } catch (error) {
      setAnswer({ error });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="hd-panel" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="hd-panel-title">
        Preview this rule (unsaved) on a sample payload
      </h3>
      <p id={`${id}-hint`} className="field-hint">
        Nothing is stored or sent; preferences, caps, quiet hours and expiry are not evaluated.
      </p>
      <JsonEditor
        id={`${id}-sample`}
        label="Sample payload for the rule preview"
        value={text}
        onChange={setText}
        marks={parsed.ok ? [] : [{ ...parsed.span, message: parsed.message }]}
        invalid={payload === null}
        describedBy={`${id}-hint`}
      />
      {payload === null && <p className="field-error">The sample payload must be a JSON object.</p>}
      <div className="hd-field-row">
        <div className="field">
          <label className="field-label" htmlFor={`${id}-language`}>
            Language of the send
          </label>
          <input
            id={`${id}-language`}
            className="input"
            value={language}
            placeholder="en_US"
            onChange={(e) => setLanguage(e.target.value)}
          />
        </div>
        <div className={recipients === null ? 'field field-invalid' : 'field'}>
          <label className="field-label" htmlFor={`${id}-recipients`}>
            Recipients of the send (REQUEST rules)
          </label>
          <textarea
            id={`${id}-recipients`}
            className="input hd-mono"
            rows={2}
            value={recipientsText}
            placeholder='[{"Role": "Customer", "Channel": "EMAIL", "RecipientId": "C-1", "Address": "a@example.com"}]'
            aria-invalid={recipients === null ? true : undefined}
            aria-describedby={recipients === null ? `${id}-recipients-error` : undefined}
            onChange={(e) => setRecipientsText(e.target.value)}
          />
          {recipients === null && (
            <p id={`${id}-recipients-error`} className="field-error">
              A JSON array of {'{Role, Channel, RecipientId, Address}'}.
            </p>
          )}
        </div>
      </div>
      <div className="form-actions">
        <button
          type="button"
          className="button"
          disabled={busy || payload === null || recipients === null}
          onClick={() => void run()}
        >
          {busy ? 'Previewing…' : 'Preview rule'}
        </button>
      </div>
      <div aria-live="polite">
        {answer !== null && 'error' in answer && <ApiErrorView error={answer.error} title="The preview was refused" />}
        {answer !== null && 'preview' in answer && <PreviewView preview={answer.preview} />}
      </div>
    </section>
  );
}

/** a policy's value; a retry policy in words */
function policyText(v: unknown): string {
  if (!isObject(v) || !('MaxAttempts' in v)) return shown(v);
  const r = v as unknown as RetryPolicy;
  return `${r.MaxAttempts} attempts, ${r.RetryInitialDelaySeconds} s ×${r.RetryBackoffMultiplier} up to ${r.RetryMaxDelaySeconds} s`;
}

function PreviewView({ preview: p }: { preview: RulePreview }) {
  const yes = (b: boolean, y: string, n: string) => (
    <span className={b ? 'hd-badge hd-badge-ok' : 'hd-badge hd-badge-no'}>{b ? y : n}</span>
  );
  return (
    <div data-testid="rule-preview">
      <dl className="hd-outcome">
        <dt>Condition</dt>
        <dd>
          {yes(p.ConditionValid, 'valid', 'invalid')}{' '}
          {p.ConditionValid && yes(p.ConditionMatched, 'matched', 'not matched')}
        </dd>
        <dt>Outcome</dt>
        <dd>
          <strong>{p.Outcome.State}</strong>
          {p.Outcome.Reason !== undefined && ` (${p.Outcome.Reason})`}
        </dd>
        <dt>Recipient (masked)</dt>
        <dd>
          {p.Recipient === undefined
            ? 'none'
            : [p.Recipient.RecipientId, p.Recipient.Address].filter((x) => x !== undefined).join(' · ')}
        </dd>
        <dt>Template</dt>
        <dd>
          {p.Template.TemplateId ?? '(none)'} {p.Template.Status !== undefined && `(${p.Template.Status})`}{' '}
          {yes(p.Template.Available, 'available', 'not available')}
        </dd>
        {Object.entries(p.EffectivePolicies).map(([name, v]) => (
          <div key={name} className="hd-outcome-pair">
            <dt>{name}</dt>
            <dd>
              <code>{policyText(v.Value)}</code> from {v.Source.toLowerCase()}
            </dd>
          </div>
        ))}
      </dl>
      {p.Violations.length > 0 && (
        <>
          <h4 className="hd-subtitle">Violations</h4>
          <ul className="hd-diagnostics">
            {p.Violations.map((v) => (
              <li key={`${v.field}:${v.message}`}>
                <code>{v.field}</code> {v.message}
              </li>
            ))}
          </ul>
        </>
      )}
      {p.Diagnostics.length > 0 && (
        <>
          <h4 className="hd-subtitle">Diagnostics</h4>
          <ul className="hd-diagnostics">
            {p.Diagnostics.map((d) => (
              <li key={d}>{d}</li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
