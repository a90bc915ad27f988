import { assertNever } from '../../domain/core/decider.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import { CLIENT_EVENT_TYPES, type ClientEvent } from '../../domain/identity/client.decider.ts';
import type { AuthMethod, GrantType, PublicJwk } from '../../domain/identity/model.ts';
import { TENANT_EVENT_TYPES, type TenantEvent } from '../../domain/identity/tenant.decider.ts';
import { USER_EVENT_TYPES, type UserEvent } from '../../domain/identity/user.decider.ts';
import { usernameKey } from '../../domain/identity/username.decider.ts';
import type { Collection, Doc, Filter, ReadStore, Sort } from '../../infra/core/read-store.port.ts';
import type { Projection } from '../core/projection.ts';
import { type ReadModel, readModel } from '../core/read-model.ts';

/**
 * `identity.directory`: the admin API's listings of tenants, users and clients (filter by tenant, status,
 * username prefix; paged). Lookups that a flow depends on read the aggregate streams instead (Directory).
 * No secret and no hash ever reaches these documents: the user's password hash and the client's secret
 * hash are dropped here (a client shows only whether it has a secret and when it was last rotated).
 */
export const DIRECTORY_PROJECTION = 'identity.directory';

export type TenantDoc = Doc & {
  id: string;
  code: string;
  name: string;
  tokenLifetimeSeconds: number;
  supportMailGroup?: string;
  status: 'active' | 'disabled';
  createdAt: string;
  updatedAt: string;
};

export type UserDoc = Doc & {
  /** `<tenant>/<userId>` */
  id: string;
  tenant: string;
  userId: string;
  directory: string;
  username: string;
  /** lower-cased username: prefix searches and sorting ignore case, as the lookups do */
  usernameKey: string;
  name: string;
  nickname?: string;
  email?: string;
  roles: string[];
  status: 'active' | 'disabled';
  createdAt: string;
  updatedAt: string;
  passwordChangedAt?: string;
};

export type ClientDoc = Doc & {
  /** the client id */
  id: string;
  clientId: string;
  tenant: string;
  appName?: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  grantTypes: GrantType[];
  authMethod: AuthMethod;
  userSourceId: string;
  defaultUser?: string;
  allowedAccessTenants: string[];
  scopes: string[];
  jwks?: PublicJwk[];
  allowPlainPkce: boolean;
  hasSecret: boolean;
  secretRotatedAt?: string;
  status: 'active' | 'disabled';
  createdAt: string;
  updatedAt: string;
};

type DirectoryEvent = TenantEvent | UserEvent | ClientEvent;

const EVENT_TYPES: string[] = [...TENANT_EVENT_TYPES, ...USER_EVENT_TYPES, ...CLIENT_EVENT_TYPES];

const userDocId = (tenant: string, userId: string) => `${tenant}/${userId}`;

type Docs = { tenants: TenantDoc; users: UserDoc; clients: ClientDoc };
type Kind = keyof Docs;

/** Writes one batch: each touched document is read once, folded in memory, written once. */
function createBatch(store: { collection<T extends Doc>(name: string): Collection<T> }) {
  const touched = new Map<string, { kind: Kind; doc: Docs[Kind] }>();
  const key = (kind: Kind, id: string) => `${kind}\u0000${id}`;
  return {
    async get<K extends Kind>(kind: K, id: string): Promise<Docs[K] | undefined> {
      const held = touched.get(key(kind, id));
      if (held !== undefined) return held.doc as Docs[K];
      return (await store.collection<Docs[K]>(kind).get(id)) ?? undefined;
    },
    put<K extends Kind>(kind: K, doc: Docs[K]): void {
      touched.set(key(kind, doc.id), { kind, doc });
    },
    async flush(): Promise<void> {
      for (const { kind, doc } of touched.values()) await store.collection(kind).upsert(doc);
    },
  };
}

async function applyOne(batch: ReturnType<typeof createBatch>, event: DirectoryEvent, at: string): Promise<void> {
  switch (event.type) {
    case 'TenantCreated': {
      const d = event.data;
      batch.put('tenants', {
        id: d.code,
        code: d.code,
        name: d.name,
        tokenLifetimeSeconds: d.tokenLifetimeSeconds,
        ...(d.supportMailGroup !== undefined && { supportMailGroup: d.supportMailGroup }),
        status: 'active',
        createdAt: d.createdAt,
        updatedAt: d.createdAt,
      });
      return;
    }
    case 'TenantUpdated': {
      const doc = await batch.get('tenants', event.data.code);
      if (doc === undefined) return;
      const next: TenantDoc = { ...doc, updatedAt: event.data.updatedAt };
      const c = event.data.changes;
      if (c.name !== undefined) next.name = c.name;
      if (c.tokenLifetimeSeconds !== undefined) next.tokenLifetimeSeconds = c.tokenLifetimeSeconds;
      if (c.supportMailGroup === null) delete next.supportMailGroup;
      else if (c.supportMailGroup !== undefined) next.supportMailGroup = c.supportMailGroup;
      batch.put('tenants', next);
      return;
    }
    case 'UserRegistered': {
      // the password hash stays in the log
      const { passwordHash: _hash, registeredAt, ...d } = event.data;
      batch.put('users', {
        id: userDocId(d.tenant, d.userId),
        tenant: d.tenant,
        userId: d.userId,
        directory: d.directory,
        username: d.username,
        usernameKey: usernameKey(d.username),
        name: d.name,
        ...(d.nickname !== undefined && { nickname: d.nickname }),
        ...(d.email !== undefined && { email: d.email }),
        roles: d.roles,
        status: 'active',
        createdAt: registeredAt,
        updatedAt: registeredAt,
      });
      return;
    }
    case 'UserUpdated':
    case 'UserDisabled':
    case 'UserEnabled':
    case 'PasswordReset': {
      const doc = await batch.get('users', userDocId(event.data.tenant, event.data.userId));
      if (doc === undefined) return;
      const next: UserDoc = { ...doc, updatedAt: at };
      if (event.type === 'UserDisabled') next.status = 'disabled';
      else if (event.type === 'UserEnabled') next.status = 'active';
      else if (event.type === 'PasswordReset') next.passwordChangedAt = at;
      else {
        const c = event.data.changes;
        if (c.name !== undefined) next.name = c.name;
        if (c.nickname === null) delete next.nickname;
        else if (c.nickname !== undefined) next.nickname = c.nickname;
        if (c.email === null) delete next.email;
        else if (c.email !== undefined) next.email = c.email;
        if (c.roles !== undefined) next.roles = c.roles;
      }
      batch.put('users', next);
      return;
    }
    case 'ClientRegistered': {
      const { secretHash, registeredAt, ...d } = event.data;
      batch.put('clients', {
        ...d,
        id: d.clientId,
        hasSecret: secretHash !== undefined,
        status: 'active',
        createdAt: registeredAt,
        updatedAt: registeredAt,
      });
      return;
    }
    case 'ClientUpdated':
    case 'ClientSecretRotated':
    case 'ClientDisabled':
    case 'ClientEnabled': {
      const doc = await batch.get('clients', event.data.clientId);
      if (doc === undefined) return;
      const next: ClientDoc = { ...doc, updatedAt: at };
      if (event.type === 'ClientDisabled') next.status = 'disabled';
      else if (event.type === 'ClientEnabled') next.status = 'active';
      else if (event.type === 'ClientSecretRotated') {
        next.hasSecret = true;
        next.secretRotatedAt = at;
      } else {
        const c = event.data.changes;
        const optional = ['appName', 'defaultUser', 'jwks'] as const;
        for (const key of optional) {
          if (c[key] === null) delete next[key];
          else if (c[key] !== undefined) (next as Record<string, unknown>)[key] = c[key];
        }
        const required = [
          'redirectUris',
          'postLogoutRedirectUris',
          'grantTypes',
          'authMethod',
          'userSourceId',
          'allowedAccessTenants',
          'scopes',
          'allowPlainPkce',
        ] as const;
        for (const key of required) if (c[key] !== undefined) (next as Record<string, unknown>)[key] = c[key];
      }
      batch.put('clients', next);
      return;
    }
    default:
      assertNever(event);
  }
}

export const directoryProjection: Projection = {
  name: DIRECTORY_PROJECTION,
  version: 1,
  categories: ['tenant', 'user', 'client'],
  eventTypes: EVENT_TYPES,
  collections: {
    tenants: { indexes: [{ name: 'by_status', fields: { status: 1 } }] },
    users: {
      indexes: [
        { name: 'by_tenant_username', fields: { tenant: 1, usernameKey: 1 } },
        { name: 'by_tenant_status', fields: { tenant: 1, status: 1 } },
      ],
    },
    clients: {
      indexes: [
        { name: 'by_tenant_client', fields: { tenant: 1, clientId: 1 } },
        { name: 'by_tenant_status', fields: { tenant: 1, status: 1 } },
      ],
    },
  },
  async apply(events: RecordedEvent[], store) {
    const batch = createBatch(store);
    for (const e of events) {
      if (!EVENT_TYPES.includes(e.type)) continue;
      await applyOne(batch, e as unknown as DirectoryEvent, e.metadata.occurredAt);
    }
    await batch.flush();
  },
};

/** For the identity module (infra/identity/identity.module.ts): the identity directory's projections. */
export const identityDirectoryProjections = (): Projection[] => [directoryProjection];

// ---- queries over the read model (the admin API's listings) ----

export type Page<T> = { items: T[]; total: number; limit: number; offset: number };
export type PageOptions = { limit: number; offset: number };

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function createDirectoryQueries(readStore: ReadStore) {
  const tenants = readModel<TenantDoc>(readStore, DIRECTORY_PROJECTION, 'tenants');
  const users = readModel<UserDoc>(readStore, DIRECTORY_PROJECTION, 'users');
  const clients = readModel<ClientDoc>(readStore, DIRECTORY_PROJECTION, 'clients');

  const page = async <T extends Doc>(
    model: ReadModel<T>,
    filter: Filter,
    sort: Sort,
    o: PageOptions,
  ): Promise<Page<T>> => {
    const [items, total] = await Promise.all([
      model.find(filter, { sort, skip: o.offset, limit: o.limit }),
      model.count(filter),
    ]);
    return { items, total, limit: o.limit, offset: o.offset };
  };

  return {
    /** every tenant, or only the listed codes (a tenant admin sees its own) */
    listTenants(q: { codes?: string[]; status?: 'active' | 'disabled' } & PageOptions): Promise<Page<TenantDoc>> {
      const filter: Filter = {};
      if (q.codes !== undefined) filter.code = { $in: q.codes };
      if (q.status !== undefined) filter.status = q.status;
      return page(tenants, filter, { code: 1 }, q);
    },

    listUsers(
      q: { tenant: string; status?: 'active' | 'disabled'; usernamePrefix?: string; directory?: string } & PageOptions,
    ): Promise<Page<UserDoc>> {
      const filter: Filter = { tenant: q.tenant };
      if (q.status !== undefined) filter.status = q.status;
      if (q.directory !== undefined) filter.directory = q.directory;
      if (q.usernamePrefix !== undefined && q.usernamePrefix !== '') {
        filter.usernameKey = { $regex: `^${escapeRegex(usernameKey(q.usernamePrefix))}` };
      }
      return page(users, filter, { usernameKey: 1 }, q);
    },

    listClients(q: { tenant: string; status?: 'active' | 'disabled' } & PageOptions): Promise<Page<ClientDoc>> {
      const filter: Filter = { tenant: q.tenant };
      if (q.status !== undefined) filter.status = q.status;
      return page(clients, filter, { clientId: 1 }, q);
    },
  };
}

export type DirectoryQueries = ReturnType<typeof createDirectoryQueries>;
