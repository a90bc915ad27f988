import type { ReactNode } from 'react';

/**
 * A named region that scrolls when its table or JSON is wider (or taller) than the screen: focusable, so
 * that a keyboard scrolls it too (axe: scrollable-region-focusable).
 */
export function ScrollRegion({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus (axe: scrollable-region-focusable)
    // biome-ignore lint/a11y/useSemanticElements: a div region wraps the content; a section would add a landmark per table
    <div className={className ?? 'table-scroll'} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
