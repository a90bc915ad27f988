import { assertNever, type Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';
import { streamName } from '../core/stream-name.ts';
import { auditError } from './audit.errors.ts';

/**
 * A tenant's audit metadata: its modules and, inside each module, its transactions (spec "Audit service":
 * metadata must be created before use). One aggregate per tenant, stream `auditCatalog-<tenant>.metadata`.
 *
 * Why one aggregate and not a stream per module and per transaction: every rule here spans resources of
 * the tenant — module names unique per tenant and transaction names per module, a module with transactions
 * cannot be deleted (409), a write names only its transaction (the module is found from it), and a
 * spreadsheet import is all-or-nothing across modules. Decided on one stream with its expected revision,
 * each of them holds under concurrency without a second mechanism; metadata changes are rare and small.
 * A spreadsheet import is one `MetadataImported` event (one fact, folded with one copy of the state).
 */
export const CATALOG_CATEGORY = 'auditCatalog';
export const catalogStream = (tenant: string): string => streamName(CATALOG_CATEGORY, tenant, 'metadata');

export type TransactionInfo = {
  module_name: string;
  transaction_name: string;
  transaction_vendor: string;
  description: string;
  created_at: string;
  updated_at: string;
};

export type ModuleInfo = {
  module_name: string;
  description: string;
  created_at: string;
  updated_at: string;
  transactions: Readonly<Record<string, TransactionInfo>>;
};

export type CatalogState = { modules: Readonly<Record<string, ModuleInfo>> };

/** One row of an import once validated (domain/audit/metadata-sheet.ts): a module, optionally with one transaction. */
export type ImportRow = {
  module_name: string;
  module_description?: string;
  transaction_name?: string;
  transaction_vendor?: string;
  transaction_description?: string;
};

export type CatalogCommand =
  | { type: 'CreateModule'; module_name: string; description?: string; now: string }
  | { type: 'UpdateModule'; module_name: string; description?: string; now: string }
  | { type: 'DeleteModule'; module_name: string; now: string }
  | {
      type: 'CreateTransaction';
      module_name: string;
      transaction_name: string;
      transaction_vendor?: string;
      description?: string;
      now: string;
    }
  | {
      type: 'UpdateTransaction';
      module_name: string;
      transaction_name: string;
      transaction_vendor?: string;
      description?: string;
      now: string;
    }
  | { type: 'DeleteTransaction'; module_name: string; transaction_name: string; now: string }
  | { type: 'ImportMetadata'; rows: ImportRow[]; now: string };

type ModuleFacts = { module_name: string; description: string; at: string };
type TransactionFacts = {
  module_name: string;
  transaction_name: string;
  transaction_vendor: string;
  description: string;
  at: string;
};

export type ModuleCreated = DomainEvent<'ModuleCreated', ModuleFacts>;
export type ModuleUpdated = DomainEvent<'ModuleUpdated', ModuleFacts>;
export type ModuleDeleted = DomainEvent<'ModuleDeleted', { module_name: string; at: string }>;
export type TransactionCreated = DomainEvent<'TransactionCreated', TransactionFacts>;
export type TransactionUpdated = DomainEvent<'TransactionUpdated', TransactionFacts>;
export type TransactionDeleted = DomainEvent<
  'TransactionDeleted',
  { module_name: string; transaction_name: string; at: string }
>;
/** an import's changes only: what it created or changed (`created` says which) */
export type MetadataImported = DomainEvent<
  'MetadataImported',
  {
    rows: number;
    modules: Array<{ module_name: string; description: string; created: boolean }>;
    transactions: Array<{
      module_name: string;
      transaction_name: string;
      transaction_vendor: string;
      description: string;
      created: boolean;
    }>;
    at: string;
  }
>;
export type CatalogEvent =
  | ModuleCreated
  | ModuleUpdated
  | ModuleDeleted
  | TransactionCreated
  | TransactionUpdated
  | TransactionDeleted
  | MetadataImported;
export const CATALOG_EVENT_TYPES: ReadonlyArray<CatalogEvent['type']> = [
  'ModuleCreated',
  'ModuleUpdated',
  'ModuleDeleted',
  'TransactionCreated',
  'TransactionUpdated',
  'TransactionDeleted',
  'MetadataImported',
];

const withModule = (state: CatalogState, module: ModuleInfo): CatalogState => ({
  modules: { ...state.modules, [module.module_name]: module },
});

function putTransaction(state: CatalogState, t: Omit<TransactionFacts, 'at'>, at: string): CatalogState {
  const module = state.modules[t.module_name];
  if (module === undefined) return state;
  const before = module.transactions[t.transaction_name];
  const tx: TransactionInfo = { ...t, created_at: before?.created_at ?? at, updated_at: at };
  return withModule(state, { ...module, transactions: { ...module.transactions, [t.transaction_name]: tx } });
}

function putModule(state: CatalogState, name: string, description: string, at: string): CatalogState {
  const before = state.modules[name];
  return withModule(state, {
    module_name: name,
    description,
    created_at: before?.created_at ?? at,
    updated_at: at,
    transactions: before?.transactions ?? {},
  });
}

const moduleOf = (state: CatalogState, name: string): ModuleInfo => {
  const module = state.modules[name];
  if (module === undefined) throw auditError('MODULE.NOT_FOUND', `no module ${name}`, { module_name: name });
  return module;
};

const transactionOf = (state: CatalogState, module: string, name: string): TransactionInfo => {
  const tx = moduleOf(state, module).transactions[name];
  if (tx === undefined)
    throw auditError('TRANSACTION.NOT_FOUND', `no transaction ${name} in module ${module}`, {
      module_name: module,
      transaction_name: name,
    });
  return tx;
};

/** what an import changes on `state`: the rows were validated (names, lengths, duplicates) before */
function importChanges(
  state: CatalogState,
  rows: ImportRow[],
): Pick<MetadataImported['data'], 'modules' | 'transactions'> {
  const modules = new Map<string, { module_name: string; description: string; created: boolean }>();
  const transactions: MetadataImported['data']['transactions'] = [];
  for (const row of rows) {
    const existing = state.modules[row.module_name];
    const seen = modules.get(row.module_name);
    const description = row.module_description ?? seen?.description ?? existing?.description ?? '';
    if (existing === undefined || existing.description !== description) {
      modules.set(row.module_name, { module_name: row.module_name, description, created: existing === undefined });
    }
    if (row.transaction_name === undefined) continue;
    const tx = existing?.transactions[row.transaction_name];
    const vendor = row.transaction_vendor ?? tx?.transaction_vendor ?? '';
    const txDescription = row.transaction_description ?? tx?.description ?? '';
    if (tx === undefined || tx.transaction_vendor !== vendor || tx.description !== txDescription) {
      transactions.push({
        module_name: row.module_name,
        transaction_name: row.transaction_name,
        transaction_vendor: vendor,
        description: txDescription,
        created: tx === undefined,
      });
    }
  }
  return { modules: [...modules.values()], transactions };
}

export const catalogDecider: Decider<CatalogCommand, CatalogEvent, CatalogState> = {
  initialState: () => ({ modules: {} }),

  evolve(state, event) {
    switch (event.type) {
      case 'ModuleCreated':
      case 'ModuleUpdated':
        return putModule(state, event.data.module_name, event.data.description, event.data.at);
      case 'ModuleDeleted': {
        const { [event.data.module_name]: _gone, ...rest } = state.modules;
        return { modules: rest };
      }
      case 'TransactionCreated':
      case 'TransactionUpdated': {
        const { at, ...t } = event.data;
        return putTransaction(state, t, at);
      }
      case 'TransactionDeleted': {
        const module = state.modules[event.data.module_name];
        if (module === undefined) return state;
        const { [event.data.transaction_name]: _gone, ...rest } = module.transactions;
        return withModule(state, { ...module, transactions: rest, updated_at: module.updated_at });
      }
      case 'MetadataImported': {
        const { at } = event.data;
        let next = state;
        for (const m of event.data.modules) next = putModule(next, m.module_name, m.description, at);
        for (const { created: _created, ...t } of event.data.transactions) next = putTransaction(next, t, at);
        return next;
      }
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'CreateModule': {
        const { module_name, now } = command;
        if (state.modules[module_name] !== undefined)
          throw auditError('MODULE.EXISTS', `module ${module_name} exists`, { module_name });
        return [{ type: 'ModuleCreated', data: { module_name, description: command.description ?? '', at: now } }];
      }
      case 'UpdateModule': {
        const module = moduleOf(state, command.module_name);
        const description = command.description ?? module.description;
        if (description === module.description) return [];
        return [{ type: 'ModuleUpdated', data: { module_name: module.module_name, description, at: command.now } }];
      }
      case 'DeleteModule': {
        const module = moduleOf(state, command.module_name);
        const transactions = Object.keys(module.transactions);
        if (transactions.length > 0) {
          throw auditError(
            'MODULE.HAS_TRANSACTIONS',
            `module ${module.module_name} has ${transactions.length} transaction(s); delete them first`,
            {
              module_name: module.module_name,
              transactions: transactions.length,
            },
          );
        }
        return [{ type: 'ModuleDeleted', data: { module_name: module.module_name, at: command.now } }];
      }
      case 'CreateTransaction': {
        const { module_name, transaction_name, now } = command;
        const module = moduleOf(state, module_name);
        if (module.transactions[transaction_name] !== undefined) {
          throw auditError('TRANSACTION.EXISTS', `transaction ${transaction_name} exists in module ${module_name}`, {
            module_name,
            transaction_name,
          });
        }
        return [
          {
            type: 'TransactionCreated',
            data: {
              module_name,
              transaction_name,
              transaction_vendor: command.transaction_vendor ?? '',
              description: command.description ?? '',
              at: now,
            },
          },
        ];
      }
      case 'UpdateTransaction': {
        const tx = transactionOf(state, command.module_name, command.transaction_name);
        const transaction_vendor = command.transaction_vendor ?? tx.transaction_vendor;
        const description = command.description ?? tx.description;
        if (transaction_vendor === tx.transaction_vendor && description === tx.description) return [];
        return [
          {
            type: 'TransactionUpdated',
            data: {
              module_name: tx.module_name,
              transaction_name: tx.transaction_name,
              transaction_vendor,
              description,
              at: command.now,
            },
          },
        ];
      }
      case 'DeleteTransaction': {
        const tx = transactionOf(state, command.module_name, command.transaction_name);
        return [
          {
            type: 'TransactionDeleted',
            data: { module_name: tx.module_name, transaction_name: tx.transaction_name, at: command.now },
          },
        ];
      }
      case 'ImportMetadata': {
        const changes = importChanges(state, command.rows);
        if (changes.modules.length === 0 && changes.transactions.length === 0) return [];
        return [{ type: 'MetadataImported', data: { rows: command.rows.length, ...changes, at: command.now } }];
      }
      default:
        return assertNever(command);
    }
  },
};

/** The modules of `state` that hold a transaction named `name` (a write names only its transaction). */
export function transactionsNamed(state: CatalogState, name: string): TransactionInfo[] {
  const found: TransactionInfo[] = [];
  for (const module of Object.values(state.modules)) {
    const tx = module.transactions[name];
    if (tx !== undefined) found.push(tx);
  }
  return found;
}
