import type { ReactNode } from 'react';

/** a table wider than the screen scrolls in place, by keyboard too (as PagedTable's does) */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus (axe: scrollable-region-focusable)
    // biome-ignore lint/a11y/useSemanticElements: a div region wraps the table, as PagedTable's
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
