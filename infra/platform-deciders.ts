import { BUS_CATEGORY, busDecider } from '../domain/bridge/bus.decider.ts';
import { configEntryDecider } from '../domain/bridge/config-entry.decider.ts';
import { DELIVERY_CATEGORY, deliveryDecider } from '../domain/bridge/delivery.decider.ts';
import { EVENT_SOURCE_CATEGORY, eventSourceDecider } from '../domain/bridge/event-source.decider.ts';
import { ruleOptOutDecider } from '../domain/bridge/platform-rule-opt-out.decider.ts';
import { PUBLISHED_CATEGORY, publishedEventDecider } from '../domain/bridge/published-event.decider.ts';
import { ruleDecider } from '../domain/bridge/rule.decider.ts';
import { RULE_TARGET_CATEGORY, ruleTargetDecider } from '../domain/bridge/rule-target-state.decider.ts';
import { SCHEMA_CATEGORY, schemaDecider } from '../domain/bridge/schema.decider.ts';
import type { Decider } from '../domain/core/decider.ts';
import type { DomainEvent } from '../domain/core/event.ts';
import { clientDecider } from '../domain/identity/client.decider.ts';
import { CODE_CATEGORY, codeDecider } from '../domain/identity/code.decider.ts';
import { EXCHANGE_CODE_CATEGORY, exchangeCodeDecider } from '../domain/identity/exchange-code.decider.ts';
import { GRANT_CATEGORY, grantDecider } from '../domain/identity/grant.decider.ts';
import { SESSION_CATEGORY, sessionDecider } from '../domain/identity/session.decider.ts';
import { SIGNING_KEY_CATEGORY, signingKeyDecider } from '../domain/identity/signing-key.decider.ts';
import { tenantDecider } from '../domain/identity/tenant.decider.ts';
import { userDecider } from '../domain/identity/user.decider.ts';
import { usernameDecider } from '../domain/identity/username.decider.ts';

/** Deciders by stream category, for `platform replay --state`. Services register theirs as they arrive. */
export type DeciderRegistry = Record<string, Pick<Decider<unknown, DomainEvent, unknown>, 'initialState' | 'evolve'>>;

const entry = <E extends DomainEvent, S>(d: Pick<Decider<never, E, S>, 'initialState' | 'evolve'>) =>
  d as unknown as DeciderRegistry[string];

export const platformDeciders = (): DeciderRegistry => ({
  // identity provider
  tenant: entry(tenantDecider),
  user: entry(userDecider),
  username: entry(usernameDecider),
  client: entry(clientDecider),
  [CODE_CATEGORY]: entry(codeDecider),
  [SESSION_CATEGORY]: entry(sessionDecider),
  [GRANT_CATEGORY]: entry(grantDecider),
  [SIGNING_KEY_CATEGORY]: entry(signingKeyDecider),
  [EXCHANGE_CODE_CATEGORY]: entry(exchangeCodeDecider),
  // event bridge
  [BUS_CATEGORY]: entry(busDecider),
  [EVENT_SOURCE_CATEGORY]: entry(eventSourceDecider),
  [PUBLISHED_CATEGORY]: entry(publishedEventDecider),
  rule: entry(ruleDecider),
  ruleOptOut: entry(ruleOptOutDecider),
  configEntry: entry(configEntryDecider),
  [SCHEMA_CATEGORY]: entry(schemaDecider),
  [DELIVERY_CATEGORY]: entry(deliveryDecider),
  [RULE_TARGET_CATEGORY]: entry(ruleTargetDecider),
});
