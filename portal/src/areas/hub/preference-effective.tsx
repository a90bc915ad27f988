import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { Form, TextField, useApiForm } from '../../ui/form.tsx';
import { ANY_CLASS, at, CODE_HINT, classLabel, type EffectivePreference } from './hub-policy-api.ts';

type Key = { channel: string; notificationClass: string };

const SOURCE_TEXT: Record<EffectivePreference['Source'], string> = {
  EXACT: "the class's own preference",
  CHANNEL: "the channel's * preference (every class)",
  DEFAULT: 'no preference applies: the tenant default (comm-hub.preference.default-allow)',
};

/** the query of one answer; the recipient's key prefix lets a change of its preferences refresh it */
export const effectivePrefix = (recipientId: string) => ['hub', 'preferences', recipientId, 'effective'];
export const effectiveKey = (recipientId: string, k: Key) => [...effectivePrefix(recipientId), k];

const fetchEffective = (recipientId: string, k: Key, signal?: AbortSignal) =>
  call(
    api.hub.GET('/comm/v1/preferences/effective', {
      params: { query: { recipientId, channel: k.channel, notificationClass: k.notificationClass || ANY_CLASS } },
      signal,
    }),
  ) as unknown as Promise<EffectivePreference>;

/**
 * "What the gate answers now" for a channel and class: the dispatch gate's own reading (the later-set of
 * the class's and the channel's `*` preference, else the default), asked again whenever the recipient's
 * preferences change on this page.
 */
export function PreferenceEffective({ recipientId }: { recipientId: string }) {
  const client = useQueryClient();
  const [asked, setAsked] = useState<Key | null>(null);
  const form = useApiForm<Key, EffectivePreference>({
    initial: { channel: '', notificationClass: ANY_CLASS },
    submit: (v) =>
      client.fetchQuery({
        queryKey: effectiveKey(recipientId, v),
        queryFn: ({ signal }) => fetchEffective(recipientId, v, signal),
        staleTime: 0,
      }),
    onSuccess: (_r, v) => setAsked(v),
  });
  const answer = useQuery({
    queryKey: effectiveKey(recipientId, asked ?? { channel: '', notificationClass: '' }),
    queryFn: ({ signal }) => fetchEffective(recipientId, asked!, signal),
    enabled: asked !== null,
    retry: false,
  });
  return (
    <section className="hp-section" aria-labelledby="hp-effective-title">
      <h2 id="hp-effective-title">What the gate answers now</h2>
      <Form form={form} submitLabel="Ask the gate" busyLabel="Asking…" className="form hp-inline-form">
        <TextField form={form} name="channel" label="Channel" hint={CODE_HINT} required />
        <TextField
          form={form}
          name="notificationClass"
          label="Notification class"
          hint="A class, or * for every class"
        />
      </Form>
      {asked !== null && (
        <div className="hp-answer" aria-live="polite">
          {answer.isPending && <p className="skeleton">Asking the gate…</p>}
          {answer.isError && <ApiErrorView error={answer.error} onRetry={() => void answer.refetch()} />}
          {answer.data !== undefined && (
            <dl className="fact-box" aria-label={`The gate's answer for ${asked.channel} ${asked.notificationClass}`}>
              <div>
                <dt>For</dt>
                <dd>
                  {asked.channel}, {classLabel(asked.notificationClass || ANY_CLASS)}
                </dd>
              </div>
              <div>
                <dt>Answer</dt>
                <dd>
                  <span className={answer.data.Allowed ? 'pill pill-good' : 'pill pill-bad'}>
                    {answer.data.Allowed ? 'Allowed' : 'Not allowed'}
                  </span>
                </dd>
              </div>
              <div>
                <dt>Source</dt>
                <dd>
                  <code>{answer.data.Source}</code>: {SOURCE_TEXT[answer.data.Source]}
                </dd>
              </div>
              {answer.data.Preference !== undefined && (
                <div>
                  <dt>Preference applied</dt>
                  <dd>
                    {answer.data.Preference.Decision} on {classLabel(answer.data.Preference.NotificationClass)}, set{' '}
                    {at(answer.data.Preference.UpdatedAt)}
                  </dd>
                </div>
              )}
            </dl>
          )}
        </div>
      )}
    </section>
  );
}
