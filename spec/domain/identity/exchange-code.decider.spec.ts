import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  type ExchangeCodeEvent,
  type ExchangeCodeIssuedData,
  exchangeCodeDecider,
  exchangeCodeStream,
} from '../../../domain/identity/exchange-code.decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

const spec = deciderSpec(exchangeCodeDecider);
const test = suite('exchange code decider');

const T0 = '2026-01-01T00:00:00.000Z';
const T30 = '2026-01-01T00:00:30.000Z';
const T60 = '2026-01-01T00:01:00.000Z';
const issuedData: ExchangeCodeIssuedData = {
  codeId: 'h1',
  tenant: 'acme',
  subject: 'u1',
  clientId: 'portal',
  scopes: ['openid'],
  sourceJti: 'g.1',
  issuedAt: T0,
  expiresAt: T60,
};
const issued: ExchangeCodeEvent = { type: 'ExchangeCodeIssued', data: issuedData };
const consume = (clientId: string, tenants: string[], now = T30) => ({
  type: 'ConsumeExchangeCode' as const,
  data: { codeId: 'h1', consumer: { clientId, tenants }, now },
});

test('stream on the platform tenant', () => {
  assert.is(exchangeCodeStream('h1'), 'exchangeCode-platform.h1');
});

test('IssueExchangeCode', () => {
  const { issuedAt: _i, ...data } = issuedData;
  spec
    .given([])
    .when({ type: 'IssueExchangeCode', data: { ...data, now: T0 } })
    .then([issued]);
  spec
    .given([issued])
    .when({ type: 'IssueExchangeCode', data: { ...data, now: T0 } })
    .thenThrows('EXCHANGE_CODE.EXISTS', 409);
});

test('consumed once', () => {
  spec
    .given([issued])
    .when(consume('billing', ['acme']))
    .then([{ type: 'ExchangeCodeConsumed', data: { codeId: 'h1', consumedBy: 'billing', consumedAt: T30 } }]);
  spec
    .given([issued, { type: 'ExchangeCodeConsumed', data: { codeId: 'h1', consumedBy: 'billing', consumedAt: T30 } }])
    .when(consume('billing', ['acme']))
    .thenThrows('EXCHANGE_CODE.USED', 400);
});

test('unknown, expired, wrong tenant, wrong audience', () => {
  spec
    .given([])
    .when(consume('billing', ['acme']))
    .thenThrows('EXCHANGE_CODE.NOT_FOUND', 400);
  spec
    .given([issued])
    .when(consume('billing', ['acme'], T60))
    .thenThrows('EXCHANGE_CODE.EXPIRED', 400);
  spec
    .given([issued])
    .when(consume('billing', ['beta']))
    .thenThrows('EXCHANGE_CODE.TENANT_MISMATCH', 400);
  spec
    .given([issued])
    .when(consume('billing', ['beta', 'acme']))
    .then([{ type: 'ExchangeCodeConsumed', data: { codeId: 'h1', consumedBy: 'billing', consumedAt: T30 } }]);
  const forPartner: ExchangeCodeEvent = { type: 'ExchangeCodeIssued', data: { ...issuedData, audience: 'partner' } };
  spec
    .given([forPartner])
    .when(consume('billing', ['acme']))
    .thenThrows('EXCHANGE_CODE.WRONG_AUDIENCE', 400);
});

test.run();
