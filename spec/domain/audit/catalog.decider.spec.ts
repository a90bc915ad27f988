import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  type CatalogEvent,
  catalogDecider,
  catalogStream,
  transactionsNamed,
} from '../../../domain/audit/catalog.decider.ts';
import { fold } from '../../../domain/core/decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

const spec = deciderSpec(catalogDecider);
const test = suite('audit catalog decider');
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-02T00:00:00.000Z';

const moduleCreated = (module_name: string, description = ''): CatalogEvent => ({
  type: 'ModuleCreated',
  data: { module_name, description, at: T0 },
});
const txCreated = (module_name: string, transaction_name: string, transaction_vendor = ''): CatalogEvent => ({
  type: 'TransactionCreated',
  data: { module_name, transaction_name, transaction_vendor, description: '', at: T0 },
});

test('one stream per tenant', () => {
  assert.is(catalogStream('acme'), 'auditCatalog-acme.metadata');
});

test('modules: create, names unique per tenant (409), update only when something changes', () => {
  spec
    .given([])
    .when({ type: 'CreateModule', module_name: 'policy', description: 'policies', now: T0 })
    .then([moduleCreated('policy', 'policies')]);
  spec
    .given([moduleCreated('policy')])
    .when({ type: 'CreateModule', module_name: 'policy', now: T1 })
    .thenThrows('MODULE.EXISTS', 409);
  spec
    .given([moduleCreated('policy', 'a')])
    .when({ type: 'UpdateModule', module_name: 'policy', description: 'a', now: T1 })
    .then([]);
  spec
    .given([moduleCreated('policy', 'a')])
    .when({ type: 'UpdateModule', module_name: 'policy', description: 'b', now: T1 })
    .then([{ type: 'ModuleUpdated', data: { module_name: 'policy', description: 'b', at: T1 } }]);
  spec.given([]).when({ type: 'UpdateModule', module_name: 'nope', now: T1 }).thenThrows('MODULE.NOT_FOUND', 404);
});

test('deleting a module that has transactions is a 409; an empty one goes, and its name may come back', () => {
  spec
    .given([moduleCreated('policy'), txCreated('policy', 'create')])
    .when({ type: 'DeleteModule', module_name: 'policy', now: T1 })
    .thenThrows('MODULE.HAS_TRANSACTIONS', 409);
  const deleted: CatalogEvent = { type: 'ModuleDeleted', data: { module_name: 'policy', at: T1 } };
  spec
    .given([moduleCreated('policy')])
    .when({ type: 'DeleteModule', module_name: 'policy', now: T1 })
    .then([deleted]);
  spec
    .given([
      moduleCreated('policy'),
      txCreated('policy', 'create'),
      { type: 'TransactionDeleted', data: { module_name: 'policy', transaction_name: 'create', at: T1 } },
    ])
    .when({ type: 'DeleteModule', module_name: 'policy', now: T1 })
    .then([deleted]);
  spec
    .given([moduleCreated('policy'), deleted])
    .when({ type: 'CreateModule', module_name: 'policy', now: T1 })
    .then([{ type: 'ModuleCreated', data: { module_name: 'policy', description: '', at: T1 } }]);
});

test('transactions belong to one module; names unique per module, the same name in two modules is allowed', () => {
  spec
    .given([])
    .when({ type: 'CreateTransaction', module_name: 'policy', transaction_name: 'create', now: T0 })
    .thenThrows('MODULE.NOT_FOUND', 404);
  spec
    .given([moduleCreated('policy'), txCreated('policy', 'create')])
    .when({ type: 'CreateTransaction', module_name: 'policy', transaction_name: 'create', now: T1 })
    .thenThrows('TRANSACTION.EXISTS', 409);
  spec
    .given([moduleCreated('policy'), moduleCreated('claim'), txCreated('policy', 'create')])
    .when({
      type: 'CreateTransaction',
      module_name: 'claim',
      transaction_name: 'create',
      transaction_vendor: 'acme-claims',
      now: T1,
    })
    .then([
      {
        type: 'TransactionCreated',
        data: {
          module_name: 'claim',
          transaction_name: 'create',
          transaction_vendor: 'acme-claims',
          description: '',
          at: T1,
        },
      },
    ]);
  spec
    .given([moduleCreated('policy')])
    .when({ type: 'DeleteTransaction', module_name: 'policy', transaction_name: 'x', now: T1 })
    .thenThrows('TRANSACTION.NOT_FOUND', 404);
  const state = fold(catalogDecider, [
    moduleCreated('policy'),
    moduleCreated('claim'),
    txCreated('policy', 'create', 'v1'),
    txCreated('claim', 'create', 'v2'),
  ]);
  assert.equal(
    transactionsNamed(state, 'create')
      .map((t) => [t.module_name, t.transaction_vendor])
      .sort(),
    [
      ['claim', 'v2'],
      ['policy', 'v1'],
    ],
  );
  assert.equal(transactionsNamed(state, 'other'), []);
});

test('updating a transaction keeps what is not given', () => {
  spec
    .given([moduleCreated('policy'), txCreated('policy', 'create', 'v1')])
    .when({
      type: 'UpdateTransaction',
      module_name: 'policy',
      transaction_name: 'create',
      description: 'new policy',
      now: T1,
    })
    .then([
      {
        type: 'TransactionUpdated',
        data: {
          module_name: 'policy',
          transaction_name: 'create',
          transaction_vendor: 'v1',
          description: 'new policy',
          at: T1,
        },
      },
    ]);
  spec
    .given([moduleCreated('policy'), txCreated('policy', 'create', 'v1')])
    .when({
      type: 'UpdateTransaction',
      module_name: 'policy',
      transaction_name: 'create',
      transaction_vendor: 'v1',
      now: T1,
    })
    .then([]);
});

test('an import is one event holding only what it creates or changes; importing the same again changes nothing', () => {
  const rows = [
    { module_name: 'policy', module_description: 'policies', transaction_name: 'create', transaction_vendor: 'v1' },
    { module_name: 'policy', transaction_name: 'cancel' },
    { module_name: 'claim' },
  ];
  const given = [moduleCreated('policy', 'old'), txCreated('policy', 'create', 'v1')];
  spec
    .given(given)
    .when({ type: 'ImportMetadata', rows, now: T1 })
    .then([
      {
        type: 'MetadataImported',
        data: {
          rows: 3,
          modules: [
            { module_name: 'policy', description: 'policies', created: false },
            { module_name: 'claim', description: '', created: true },
          ],
          transactions: [
            {
              module_name: 'policy',
              transaction_name: 'cancel',
              transaction_vendor: '',
              description: '',
              created: true,
            },
          ],
          at: T1,
        },
      },
    ]);
  const [imported] = catalogDecider.decide({ type: 'ImportMetadata', rows, now: T1 }, fold(catalogDecider, given));
  const after = fold(catalogDecider, [...given, imported!]);
  assert.equal(Object.keys(after.modules).sort(), ['claim', 'policy']);
  assert.equal(Object.keys(after.modules.policy!.transactions).sort(), ['cancel', 'create']);
  assert.is(after.modules.policy!.created_at, T0, 'an update keeps the creation time');
  assert.is(after.modules.policy!.updated_at, T1);
  spec
    .given([...given, imported!])
    .when({ type: 'ImportMetadata', rows, now: T1 })
    .then([]);
});

test.run();
