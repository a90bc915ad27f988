import { API_DESTINATION_CATEGORY, apiDestinationDecider } from '../../domain/bridge/api-destination.decider.ts';
import { BUS_CATEGORY, busDecider } from '../../domain/bridge/bus.decider.ts';
import { configEntryDecider } from '../../domain/bridge/config-entry.decider.ts';
import { CONNECTION_CATEGORY, connectionDecider } from '../../domain/bridge/connection.decider.ts';
import { DELIVERY_CATEGORY, deliveryDecider } from '../../domain/bridge/delivery.decider.ts';
import { EVENT_SOURCE_CATEGORY, eventSourceDecider } from '../../domain/bridge/event-source.decider.ts';
import { MQ_TOPIC_CATEGORY, mqTopicDecider } from '../../domain/bridge/mq.decider.ts';
import { ruleOptOutDecider } from '../../domain/bridge/platform-rule-opt-out.decider.ts';
import { PUBLISHED_CATEGORY, publishedEventDecider } from '../../domain/bridge/published-event.decider.ts';
import { ruleDecider } from '../../domain/bridge/rule.decider.ts';
import { RULE_TARGET_CATEGORY, ruleTargetDecider } from '../../domain/bridge/rule-target-state.decider.ts';
import { SCHEMA_CATEGORY, schemaDecider } from '../../domain/bridge/schema.decider.ts';
import { SERVICE_ENTRY_CATEGORY, serviceEntryDecider } from '../../domain/bridge/service-entry.decider.ts';
import { USER_MESSAGE_CATEGORY, userMessageDecider } from '../../domain/bridge/user-message.decider.ts';
import { type DeciderRegistry, deciderEntry as entry, type ServiceModule } from '../platform-service.ts';
import { bridgeProjections } from './bridge-projections.ts';

/** The event bridge's deciders by stream category (`platform replay --state`). */
export const bridgeDeciders = (): DeciderRegistry => ({
  [BUS_CATEGORY]: entry(busDecider),
  [EVENT_SOURCE_CATEGORY]: entry(eventSourceDecider),
  [PUBLISHED_CATEGORY]: entry(publishedEventDecider),
  rule: entry(ruleDecider),
  ruleOptOut: entry(ruleOptOutDecider),
  configEntry: entry(configEntryDecider),
  [SCHEMA_CATEGORY]: entry(schemaDecider),
  [DELIVERY_CATEGORY]: entry(deliveryDecider),
  [RULE_TARGET_CATEGORY]: entry(ruleTargetDecider),
  [MQ_TOPIC_CATEGORY]: entry(mqTopicDecider),
  [USER_MESSAGE_CATEGORY]: entry(userMessageDecider),
  [CONNECTION_CATEGORY]: entry(connectionDecider),
  [API_DESTINATION_CATEGORY]: entry(apiDestinationDecider),
  [SERVICE_ENTRY_CATEGORY]: entry(serviceEntryDecider),
});

/** The event bridge as one entry of the platform's service list. */
export const bridgeModule: ServiceModule = {
  name: 'bridge',
  projections: bridgeProjections,
  deciders: bridgeDeciders,
  async create(deps) {
    const { createBridgeService } = await import('./bridge.service.ts');
    return createBridgeService(deps);
  },
};
