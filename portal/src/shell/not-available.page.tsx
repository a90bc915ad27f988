import { Link } from '@tanstack/react-router';
import type { AreaMeta } from './area-meta.ts';
import { Page } from './page.tsx';

/** An area the session's scopes do not open, shown in place of its pages. */
export function NotAvailablePage({ area }: { area: AreaMeta }) {
  return (
    <Page title={`${area.title} is not available`}>
      <p>
        This area needs the scope{area.scopes.length > 1 ? 's' : ''}{' '}
        {area.scopes.map((s, i) => (
          <span key={s}>
            {i > 0 && ', '}
            <code>{s}</code>
          </span>
        ))}
        , which your roles do not give you. An administrator of your tenant can add the role to your user.
      </p>
      <p>
        <Link to="/">Back to the home page</Link>
      </p>
    </Page>
  );
}
