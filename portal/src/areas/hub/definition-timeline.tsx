import type { Definition } from './hub-defs-api.ts';

/**
 * A code's versions on one time axis, a lane each: a bar spans [EffectiveTime, ExpiryTime) (open-ended
 * bars run to the axis' end), enabled versions filled, disabled ones dashed. The table beside it states
 * the same windows in text, so the drawing is hidden from assistive technology.
 */
export function DefinitionTimeline({ versions, now = Date.now() }: { versions: Definition[]; now?: number }) {
  if (versions.length === 0) return null;
  const starts = versions.map((v) => Date.parse(v.EffectiveTime));
  const ends = versions.flatMap((v) => (v.ExpiryTime === undefined ? [] : [Date.parse(v.ExpiryTime)]));
  const from = Math.min(...starts, now);
  const last = Math.max(...starts, ...ends, now);
  // room after the last instant so that an open end reads as open
  const to = last + Math.max((last - from) * 0.15, 86_400_000);
  const at = (t: number) => ((t - from) / (to - from)) * 100;
  const day = (t: number) => new Date(t).toLocaleDateString(undefined, { dateStyle: 'medium' });
  return (
    <div className="hd-timeline" aria-hidden="true" data-testid="definition-timeline">
      {versions.map((v) => {
        const start = at(Date.parse(v.EffectiveTime));
        const end = v.ExpiryTime === undefined ? 100 : at(Date.parse(v.ExpiryTime));
        const cls = ['hd-bar', v.Enabled ? '' : 'hd-bar-disabled', v.ExpiryTime === undefined ? 'hd-bar-open' : '']
          .filter((c) => c !== '')
          .join(' ');
        return (
          <div key={v.DefinitionId} className="hd-lane">
            <div className={cls} style={{ left: `${start}%`, width: `${Math.max(end - start, 0.5)}%` }}>
              v{v.Version}
              {v.Enabled ? '' : ' (disabled)'}
              {v.ExpiryTime === undefined ? ' → open-ended' : ''}
            </div>
          </div>
        );
      })}
      <div className="hd-now" style={{ left: `${at(now)}%` }} />
      <div className="hd-axis">
        <span>{day(from)}</span>
        <span>{day(to)}</span>
      </div>
      <p className="hd-legend">Red line: now. Dashed: disabled (never selected).</p>
    </div>
  );
}
