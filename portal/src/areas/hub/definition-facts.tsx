import { Link } from '@tanstack/react-router';
import { type Definition, when } from './hub-defs-api.ts';

/** A definition version's window and policies as facts (its page, and the snapshot that captured it). */
export function DefinitionFacts({ d }: { d: Definition }) {
  const facts: Array<[string, string]> = [
    ['Effective from', when(d.EffectiveTime)],
    ['Until', d.ExpiryTime === undefined ? 'open-ended' : when(d.ExpiryTime)],
    ['Selectable', d.Enabled ? 'yes (enabled)' : 'no (disabled)'],
    ['Context', d.ContextDefinitionId ?? 'none'],
    ['Default language', d.DefaultLanguageId ?? 'none'],
    ['Strategy', d.DeliveryStrategy],
    ['Class', d.NotificationClass],
    ['Preference policy', d.PreferencePolicy ?? 'RESPECT (default)'],
    ['Frequency cap policy', d.FrequencyCapPolicy ?? 'RESPECT (default)'],
    ['Quiet hours policy', d.QuietHoursPolicy ?? 'RESPECT (default)'],
    [
      'Retry policy',
      d.RetryPolicy === undefined
        ? 'default'
        : `${d.RetryPolicy.MaxAttempts} attempts, ${d.RetryPolicy.RetryInitialDelaySeconds} s ×${d.RetryPolicy.RetryBackoffMultiplier} up to ${d.RetryPolicy.RetryMaxDelaySeconds} s`,
    ],
  ];
  const overrides = Object.entries(d.RoleDeliveryStrategyOverrides);
  if (overrides.length > 0) facts.push(['Strategy per role', overrides.map(([r, s]) => `${r}: ${s}`).join(', ')]);
  return (
    <dl className="hd-facts">
      {facts.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>
            {k === 'Context' && d.ContextDefinitionId !== undefined ? (
              <Link to="/hub/context-definitions/$id" params={{ id: d.ContextDefinitionId }}>
                {v}
              </Link>
            ) : (
              v
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
