import type { ReactNode } from 'react';

/**
 * A table or block wider than the screen scrolls in place, by keyboard too: the region takes the focus
 * (axe: scrollable-region-focusable). Every scrolling table and JSON block of the portal sits in one.
 */
export function ScrollRegion({
  label,
  className,
  children,
}: {
  label: string;
  /** the block's own class; tables scroll in `table-scroll` */
  className?: string;
  children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus (axe: scrollable-region-focusable)
    // biome-ignore lint/a11y/useSemanticElements: a div region wraps the table; a section would add a landmark per list
    <div className={className ?? 'table-scroll'} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
