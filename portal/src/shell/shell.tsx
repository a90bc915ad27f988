import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, useRouter, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { sessionQuery, signOut } from '../api/session.ts';
import { useStatus } from '../ui/status.tsx';
import { currentNavEntry, navGroups, visibleAreas } from './area-nav.ts';
import { PRODUCT } from './page.tsx';
import { TenantPicker } from './tenant-picker.tsx';

/**
 * The frame of every page: the header (product, the signed-in tenant and user, the target-tenant picker
 * for platform administrators, sign-out), the navigation of the areas the session may open (a menu
 * button below 720 px), and the page. After each navigation the focus moves to the page's heading.
 */
export function Shell() {
  const session = useQuery(sessionQuery).data ?? null;
  const router = useRouter();
  const areas = visibleAreas(router.options.context.areas, session);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const current = currentNavEntry(areas, pathname.replace(/^\/portal(?=\/|$)/, '') || '/');
  const [menuOpen, setMenuOpen] = useState(false);
  const first = useRef(true);
  const notify = useStatus();

  // biome-ignore lint/correctness/useExhaustiveDependencies: a navigation (a new pathname) closes the menu
  useEffect(() => setMenuOpen(false), [pathname]);
  // after a navigation has rendered its page (lazy chunks included): the focus goes to the new heading
  useEffect(
    () =>
      router.subscribe('onRendered', (e) => {
        if (!e.pathChanged) return;
        if (first.current) {
          first.current = false;
          return;
        }
        requestAnimationFrame(() => document.querySelector<HTMLElement>('main h1')?.focus());
      }),
    [router],
  );

  const onSignOut = () => {
    signOut().catch((err: unknown) =>
      notify({ kind: 'error', text: `Sign-out failed: ${err instanceof Error ? err.message : String(err)}` }),
    );
  };

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="header">
        <Link to="/" className="brand">
          {PRODUCT}
        </Link>
        {session !== null && (
          <>
            <button
              type="button"
              className="button menu-toggle"
              aria-expanded={menuOpen}
              aria-controls="nav"
              onClick={() => setMenuOpen((o) => !o)}
            >
              Menu
            </button>
            <div className="header-session">
              <p className="header-tenant">
                <span className="header-label">Tenant</span> <strong>{session.tenant}</strong>
              </p>
              {session.platformAdmin && <TenantPicker session={session} />}
              <p className="header-user">
                <span className="header-label">Signed in as</span> <strong>{session.user.name}</strong>
              </p>
              <button type="button" className="button" onClick={onSignOut}>
                Sign out
              </button>
            </div>
          </>
        )}
      </header>
      <div className="layout">
        {session !== null && (
          <nav id="nav" className="nav" data-open={menuOpen ? 'true' : 'false'} aria-label="Areas">
            <ul className="nav-list">
              <li>
                <Link to="/" className="nav-link" activeOptions={{ exact: true }}>
                  Home
                </Link>
              </li>
              {navGroups(areas).map((g) => (
                <li key={g.heading}>
                  <p className="nav-heading">{g.heading}</p>
                  <ul className="nav-list">
                    {g.areas.map((a) => {
                      const items = a.nav.map((item) => (
                        <li key={item.to}>
                          <Link
                            to={item.to}
                            className="nav-link"
                            // only the entry the page belongs to is current, not every entry above it
                            activeOptions={{ exact: item.to !== current }}
                          >
                            {item.label}
                          </Link>
                        </li>
                      ));
                      // an area under a group of another name (Public Setting > Event Bridge) has its own sub-heading
                      return a.title === g.heading ? (
                        items
                      ) : (
                        <li key={a.id}>
                          <p className="nav-subheading">{a.title}</p>
                          <ul className="nav-list nav-nested">{items}</ul>
                        </li>
                      );
                    })}
                  </ul>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <main id="main" className="main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}
