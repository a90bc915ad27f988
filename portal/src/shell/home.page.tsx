import { useQuery } from '@tanstack/react-query';
import { Link, useRouter } from '@tanstack/react-router';
import { sessionQuery } from '../api/session.ts';
import { visibleAreas } from './area-nav.ts';
import { Page } from './page.tsx';

/** The areas the session may open, each with its entries. */
export function HomePage() {
  const session = useQuery(sessionQuery).data ?? null;
  const router = useRouter();
  const areas = visibleAreas(router.options.context.areas, session);
  return (
    <Page
      title="Home"
      lead={
        session !== null
          ? `Welcome, ${session.user.name}. You administer tenant ${session.tenant}${session.platformAdmin ? ' and the platform' : ''}.`
          : undefined
      }
    >
      {areas.length === 0 ? (
        <p className="empty">
          Your roles open no area of the portal yet. An administrator of your tenant can give your user the roles of an
          area (for example bridge:admin).
        </p>
      ) : (
        <ul className="cards" aria-label="Areas">
          {areas.map((a) => (
            <li key={a.id} className="card">
              <h2 className="card-title">
                <Link to={a.nav[0]?.to ?? `/${a.id}`}>
                  {a.group !== undefined ? `${a.group} › ${a.title}` : a.title}
                </Link>
              </h2>
              <p>{a.description}</p>
              {a.nav.length > 1 && (
                <ul className="card-links">
                  {a.nav.map((n) => (
                    <li key={n.to}>
                      <Link to={n.to}>{n.label}</Link>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
