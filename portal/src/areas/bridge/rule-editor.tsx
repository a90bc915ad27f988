import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { MAX_TARGETS_PER_RULE } from '../../../../domain/bridge/bridge.constants.ts';
import { api, call } from '../../api/client.ts';
import { ApiError, fieldProblems, isApiError } from '../../api/errors.ts';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { CheckboxField, Form, TextField, useApiForm } from '../../ui/form.tsx';
import { useStatus } from '../../ui/status.tsx';
import {
  ADMIN,
  previewConversionWithApi,
  type Rule,
  testPatternWithApi,
  validatePatternWithApi,
} from './bridge-api.ts';
import { isJsonObject, parseJsonText, pretty } from './json-text.ts';
import { updateCachedLists, upsert } from './list-cache.ts';
import { usePatternCheck } from './pattern-check.ts';
import { PatternEditor } from './pattern-editor.tsx';
import { newTarget, type RuleDraft, ruleBody } from './rule-draft.ts';
import { SampleEventPanel } from './sample-event.panel.tsx';
import { TargetEditor } from './target-editor.tsx';

const SAMPLE = pretty({
  id: 'sample-1',
  source: 'shop:orders',
  type: 'shop:Order:Placed',
  time: '2026-01-01T10:00:00',
  dataContentType: 'application/json',
  data: { orderId: 'A-1', amount: 120 },
});

/**
 * The rule form: name, pattern (checked as it is typed by the API's own validation), the sample-event
 * test, up to five targets with their parameters and conversions (each previewed for the sample), and
 * for a saved rule enable/disable and delete. A refused save keeps every input and marks what it names.
 */
export function RuleEditor({ initial, mode }: { initial: RuleDraft; mode: 'create' | 'edit' }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const notify = useStatus();
  const [sample, setSample] = useState(SAMPLE);
  const form = useApiForm<RuleDraft, Rule>({
    initial,
    submit: async (v) => {
      const pattern = parseJsonText(v.pattern);
      if (!pattern.ok)
        throw new ApiError(400, 'PATTERN.NOT_JSON', `The pattern is not JSON: ${pattern.message}`, [
          { field: 'pattern', message: pattern.message },
        ]);
      const built = ruleBody(v, pattern.value);
      if ('field' in built) throw new ApiError(400, 'RULE.INCOMPLETE', built.message, [built]);
      if (mode === 'create') {
        return call(
          api.bridge.POST(`${ADMIN}/rules`, {
            body: { ...built.body, bus: v.bus, ...(v.id.trim() !== '' && { id: v.id.trim() }) },
          }),
        );
      }
      return call(
        api.bridge.PUT(`${ADMIN}/rules/{id}`, {
          params: { path: { id: v.id } },
          body: { ...built.body, description: v.description.trim() === '' ? null : v.description },
        }),
      );
    },
    onSuccess: async (rule) => {
      notify({ kind: 'success', text: mode === 'create' ? 'Rule created' : 'Rule saved' });
      // a new rule is not added to the cached pages (their bus filter and order are the API's)
      updateCachedLists<Rule>(
        queryClient,
        ['bridge', 'rules'],
        mode === 'create' ? (items) => items : upsert(rule, (r) => r.id),
      );
      await queryClient.invalidateQueries({ queryKey: ['bridge', 'rule', rule.id] });
      if (mode === 'create') await navigate({ to: '/bridge/rules/$ruleId', params: { ruleId: rule.id ?? '' } });
    },
  });
  const check = usePatternCheck(form.values.pattern, validatePatternWithApi);
  const parsedSample = parseJsonText(sample);
  const sampleEvent = parsedSample.ok && isJsonObject(parsedSample.value) ? parsedSample.value : null;
  const sampleKey = JSON.stringify(sampleEvent);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the sample's identity follows its JSON
  const stableSample = useMemo(() => sampleEvent, [sampleKey]);
  const destinations = useQuery({
    queryKey: ['bridge', 'api-destinations', 'names'],
    queryFn: async ({ signal }) =>
      (
        (
          await call(
            api.bridge.GET(`${ADMIN}/api-destinations`, { params: { query: { limit: 200, offset: 0 } }, signal }),
          )
        ).items ?? []
      ).map((d) => d.name ?? ''),
  });
  const problems = isApiError(form.error) ? fieldProblems(form.error.details) : [];
  const patternSaveError =
    isApiError(form.error) && form.error.code.startsWith('PATTERN.') ? form.error.message : form.errors.pattern;
  const targets = form.values.targets;
  const setTargets = (next: RuleDraft['targets']) => form.set('targets', next);

  return (
    <>
      <Form form={form} submitLabel={mode === 'create' ? 'Create rule' : 'Save rule'} className="form rule-form">
        <div className="rule-grid">
          <div className="rule-main">
            <TextField form={form} name="name" label="Name" required />
            {mode === 'create' && (
              <TextField
                form={form}
                name="id"
                label="Rule id"
                hint="Optional: letters, digits, - and _. Never reused."
              />
            )}
            <TextField form={form} name="description" label="Description" />
            <CheckboxField form={form} name="enabled" label="Enabled (routed to)" />
            <PatternEditor
              id={form.ids('pattern').input}
              value={form.values.pattern}
              onChange={(t) => form.set('pattern', t)}
              check={check}
              {...(patternSaveError !== undefined && { saveError: patternSaveError })}
            />
          </div>
          <SampleEventPanel value={sample} onChange={setSample} check={check} test={testPatternWithApi} />
        </div>
        <section className="section" aria-labelledby="targets-title">
          <div className="section-head">
            <h2 id="targets-title">
              Targets{' '}
              <span className="check-muted">
                ({targets.length} of {MAX_TARGETS_PER_RULE})
              </span>
            </h2>
          </div>
          {form.errors.targets !== undefined && (
            // the focus comes here after a refusal naming the targets (useApiForm focuses the field's id)
            <p className="field-error" id={form.ids('targets').input} tabIndex={-1}>
              {form.errors.targets}
            </p>
          )}
          {targets.map((t, i) => (
            <TargetEditor
              key={t.key}
              target={t}
              index={i}
              onChange={(next) => setTargets(targets.map((x) => (x.key === t.key ? next : x)))}
              {...(targets.length > 1 && { onRemove: () => setTargets(targets.filter((x) => x.key !== t.key)) })}
              sample={stableSample}
              preview={previewConversionWithApi}
              destinations={destinations.data ?? null}
              problems={problems
                .filter((p) => p.field.startsWith(`targets.${i}.`))
                .map((p) => ({ ...p, field: p.field.slice(`targets.${i}.`.length) }))}
            />
          ))}
          {targets.length < MAX_TARGETS_PER_RULE ? (
            <button type="button" className="button" onClick={() => setTargets([...targets, newTarget(targets)])}>
              Add target
            </button>
          ) : (
            <p className="check-muted">A rule has at most {MAX_TARGETS_PER_RULE} targets.</p>
          )}
        </section>
      </Form>
      {mode === 'edit' && <RuleActions id={initial.id} enabled={initial.enabled} bus={initial.bus} />}
    </>
  );
}

function RuleActions({ id, enabled, bus }: { id: string; enabled: boolean; bus: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notify = useStatus();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const act = async (what: 'enable' | 'disable' | 'delete') => {
    setBusy(true);
    setError(null);
    try {
      if (what === 'delete') {
        await call(api.bridge.DELETE(`${ADMIN}/rules/{id}`, { params: { path: { id } } }));
        notify({ kind: 'success', text: `Rule ${id} deleted` });
        updateCachedLists<Rule>(queryClient, ['bridge', 'rules'], (items) => items.filter((r) => r.id !== id));
        await navigate({ to: '/bridge/buses/$bus', params: { bus } });
        return;
      }
      const path = what === 'enable' ? `${ADMIN}/rules/{id}/enable` : `${ADMIN}/rules/{id}/disable`;
      const rule = await call(
        api.bridge.POST(path as `${typeof ADMIN}/rules/{id}/enable`, { params: { path: { id } } }),
      );
      notify({ kind: 'success', text: what === 'enable' ? 'Rule enabled' : 'Rule disabled' });
      await queryClient.invalidateQueries({ queryKey: ['bridge', 'rule', id] });
      updateCachedLists<Rule>(
        queryClient,
        ['bridge', 'rules'],
        upsert(rule, (r) => r.id),
      );
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
      setAsking(false);
    }
  };
  return (
    <section className="section" aria-labelledby="rule-actions-title">
      <h2 id="rule-actions-title">Rule state</h2>
      {error !== null && <ApiErrorView error={error} title="Not changed" />}
      <div className="form-actions">
        <button
          type="button"
          className="button"
          disabled={busy}
          onClick={() => void act(enabled ? 'disable' : 'enable')}
        >
          {enabled ? 'Disable rule' : 'Enable rule'}
        </button>
        <button type="button" className="button button-danger" disabled={busy} onClick={() => setAsking(true)}>
          Delete rule
        </button>
      </div>
      {asking && (
        <ConfirmDialog
          title={`Delete rule ${id}?`}
          confirmLabel="Delete"
          danger
          busy={busy}
          onConfirm={() => void act('delete')}
          onCancel={() => setAsking(false)}
        >
          Its id is never used again.
        </ConfirmDialog>
      )}
    </section>
  );
}
