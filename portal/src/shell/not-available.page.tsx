import { Link } from '@tanstack/react-router';
import { hasScopes, type Session } from '../api/session.ts';
import type { AreaMeta } from './area-meta.ts';
import { Page } from './page.tsx';

/** An area the session may not open (its scopes, or its tenant for an operators' area), shown in place of its pages. */
export function NotAvailablePage({ area, session }: { area: AreaMeta; session: Session | null | undefined }) {
  if (hasScopes(session, area.scopes))
    return (
      <Page title={`${area.title} is not available`}>
        <p>
          This area is for the platform's operators: tenant <code>{session?.tenant}</code> is not one of the operator
          tenants the platform is configured with (<code>OPS_OPERATOR_TENANTS</code>).
        </p>
        <p>
          <Link to="/">Back to the home page</Link>
        </p>
      </Page>
    );
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
