import { type ReactNode, useEffect } from 'react';

export const PRODUCT = 'Platform console';

/**
 * A page's frame: its heading (the target of the focus after a navigation) and the document title.
 * `actions` sit beside the heading (a Create button).
 */
export function Page({
  title,
  actions,
  children,
  lead,
}: {
  title: string;
  actions?: ReactNode;
  lead?: ReactNode;
  children?: ReactNode;
}) {
  useEffect(() => {
    document.title = `${title} · ${PRODUCT}`;
  }, [title]);
  return (
    <>
      <div className="page-head">
        <h1 tabIndex={-1} className="page-title">
          {title}
        </h1>
        {actions !== undefined && <div className="page-actions">{actions}</div>}
      </div>
      {lead !== undefined && <p className="page-lead">{lead}</p>}
      {children}
    </>
  );
}
