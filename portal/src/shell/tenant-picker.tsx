import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { api, call } from '../api/client.ts';
import { hasScopes, type Session } from '../api/session.ts';
import type { RootSearch } from './root-search.ts';

/**
 * For platform administrators: the tenant the portal acts on where the API lets them name another
 * tenant (the audit spec's "target tenant"). The choice is the URL's `?tenant=` (kept on every link, so a
 * copied link acts on the same tenant); the API client adds it to the operations that take it. The list
 * comes from the identity admin API when the session may read it; otherwise a code is typed.
 */
export function TenantPicker({ session }: { session: Session }) {
  const id = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const current = (useSearch({ strict: false }) as { tenant?: string }).tenant ?? '';
  const [typed, setTyped] = useState(current);
  const tenants = useQuery({
    queryKey: ['portal', 'tenants'],
    queryFn: () => call(api.identity.GET('/cas/admin/v1/tenants', { params: { query: { limit: 200, offset: 0 } } })),
    enabled: hasScopes(session, ['identity:admin']),
    staleTime: 60_000,
  });

  const choose = async (tenant: string) => {
    await navigate({
      to: '.',
      search: (prev: RootSearch): RootSearch => ({
        ...prev,
        tenant: tenant === '' || tenant === session.tenant ? undefined : tenant,
      }),
    });
    // what was loaded for the former tenant is not this one's (lists keyed by the tenant refetch anyway)
    await queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'portal' });
  };

  const codes = (tenants.data?.items ?? [])
    .map((t) => t.code)
    .filter((c): c is string => typeof c === 'string' && c !== session.tenant);
  if (tenants.isSuccess) {
    return (
      <div className="tenant-picker">
        <label htmlFor={id} className="header-label">
          Target tenant
        </label>
        <select id={id} className="input input-small" value={current} onChange={(e) => void choose(e.target.value)}>
          <option value="">{session.tenant} (own)</option>
          {codes.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </div>
    );
  }
  return (
    <form
      className="tenant-picker"
      onSubmit={(e) => {
        e.preventDefault();
        void choose(typed.trim());
      }}
    >
      <label htmlFor={id} className="header-label">
        Target tenant
      </label>
      <input
        id={id}
        className="input input-small"
        value={typed}
        placeholder={session.tenant}
        onChange={(e) => setTyped(e.target.value)}
      />
      <button type="submit" className="button button-small">
        Apply
      </button>
    </form>
  );
}
