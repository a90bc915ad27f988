import { assertNever, type Decider } from '../core/decider.ts';
import { type IdentityErrorCode, identityError } from './identity.errors.ts';
import { PLATFORM_TENANT } from './model.ts';

/**
 * Exchange codes (/cas/exchange-code/get and /consume): a one-time code that carries a signed-in identity
 * from one internal service to another. Stream `exchangeCode-platform.<sha256 of the code>`: the code
 * itself never reaches the log. Single use is enforced by the log: ExchangeCodeConsumed is appended with
 * the expected revision, so of two concurrent consumers one appends and the other re-reads a spent code.
 */
export const EXCHANGE_CODE_CATEGORY = 'exchangeCode';
export const exchangeCodeStream = (codeId: string): string => `${EXCHANGE_CODE_CATEGORY}-${PLATFORM_TENANT}.${codeId}`;

export type ExchangeCodeIssuedData = {
  codeId: string;
  /** the identity carried: from the access token presented at /get */
  tenant: string;
  subject: string;
  clientId: string;
  scopes: string[];
  /** when set, only this client may consume the code */
  audience?: string;
  /** jti of the access token presented at /get */
  sourceJti: string;
  issuedAt: string;
  expiresAt: string;
};

export type ExchangeCodeEvent =
  | { type: 'ExchangeCodeIssued'; data: ExchangeCodeIssuedData }
  | { type: 'ExchangeCodeConsumed'; data: { codeId: string; consumedBy: string; consumedAt: string } };

export type ExchangeCodeCommand =
  | { type: 'IssueExchangeCode'; data: Omit<ExchangeCodeIssuedData, 'issuedAt'> & { now: string } }
  | {
      type: 'ConsumeExchangeCode';
      data: {
        codeId: string;
        consumer: {
          clientId: string;
          /** the consumer client's tenant and its allowed_access_tenants: the code's tenant must be one */
          tenants: string[];
        };
        now: string;
      };
    };

export type ExchangeCodeState =
  | { status: 'none' }
  | { status: 'issued'; code: ExchangeCodeIssuedData }
  | { status: 'consumed'; code: ExchangeCodeIssuedData; consumedBy: string };

/** Every refusal is invalid_grant at the endpoint; the codes name the reason. */
const refuse = (code: IdentityErrorCode, message: string) => identityError(code, message);

export const exchangeCodeDecider: Decider<ExchangeCodeCommand, ExchangeCodeEvent, ExchangeCodeState> = {
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    switch (event.type) {
      case 'ExchangeCodeIssued':
        return { status: 'issued', code: event.data };
      case 'ExchangeCodeConsumed':
        return state.status === 'none'
          ? state
          : { status: 'consumed', code: state.code, consumedBy: event.data.consumedBy };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'IssueExchangeCode': {
        const { now, ...data } = command.data;
        if (state.status !== 'none')
          throw identityError('EXCHANGE_CODE.EXISTS', 'this exchange code was issued before');
        return [{ type: 'ExchangeCodeIssued', data: { ...data, issuedAt: now } }];
      }
      case 'ConsumeExchangeCode': {
        const d = command.data;
        if (state.status === 'none') throw refuse('EXCHANGE_CODE.NOT_FOUND', 'unknown exchange code');
        if (state.status === 'consumed') throw refuse('EXCHANGE_CODE.USED', 'the exchange code was used already');
        if (Date.parse(d.now) >= Date.parse(state.code.expiresAt))
          throw refuse('EXCHANGE_CODE.EXPIRED', 'the exchange code expired');
        if (state.code.audience !== undefined && state.code.audience !== d.consumer.clientId) {
          throw refuse('EXCHANGE_CODE.WRONG_AUDIENCE', 'the exchange code was issued for another client');
        }
        if (!d.consumer.tenants.includes(state.code.tenant)) {
          throw refuse(
            'EXCHANGE_CODE.TENANT_MISMATCH',
            'the exchange code belongs to a tenant this client may not access',
          );
        }
        return [
          {
            type: 'ExchangeCodeConsumed',
            data: { codeId: d.codeId, consumedBy: d.consumer.clientId, consumedAt: d.now },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
