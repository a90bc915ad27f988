import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { StatusBadge } from './status-badge.tsx';
import './sso.css';

/** SSO Config > Users: the tenant's users, a page at a time, with their roles. */
export function UsersPage() {
  const [typed, setTyped] = useState('');
  const [prefix, setPrefix] = useState('');
  const searchId = useId();
  return (
    <Page
      title="Users"
      lead="The people and machine users who sign in to your tenant, and the roles that give them scopes."
      actions={
        <Link to="/sso/users/new" className="button button-primary">
          Create user
        </Link>
      }
    >
      <search>
        <form
          className="search-row"
          onSubmit={(e) => {
            e.preventDefault();
            setPrefix(typed.trim());
          }}
        >
          <label htmlFor={searchId}>Username starts with</label>
          <input id={searchId} className="input input-small" value={typed} onChange={(e) => setTyped(e.target.value)} />
          <button type="submit" className="button button-small">
            Search
          </button>
        </form>
      </search>
      <PagedTable
        // a new search starts at its first page
        key={prefix}
        caption="Users"
        captionHidden
        queryKey={['identity', 'users', { prefix }]}
        fetchPage={async ({ offset, limit }, signal) => {
          const query = { offset, limit, ...(prefix !== '' && { username_prefix: prefix }) };
          const page = await call(api.identity.GET('/cas/admin/v1/users', { params: { query }, signal }));
          return { items: page.items ?? [], ...(page.total !== undefined && { total: page.total }) };
        }}
        rowKey={(u) => u.user_id ?? ''}
        columns={[
          {
            key: 'username',
            header: 'Username',
            rowHeader: true,
            cell: (u) => (
              <Link to="/sso/users/$userId" params={{ userId: u.user_id ?? '' }}>
                {u.username}
              </Link>
            ),
          },
          { key: 'name', header: 'Name', cell: (u) => u.name },
          {
            key: 'roles',
            header: 'Roles',
            cell: (u) => ((u.roles ?? []).length > 0 ? (u.roles ?? []).join(', ') : 'none'),
          },
          { key: 'status', header: 'Status', cell: (u) => <StatusBadge status={u.status} /> },
        ]}
        empty={prefix === '' ? 'No users yet.' : `No username starts with "${prefix}".`}
      />
    </Page>
  );
}
