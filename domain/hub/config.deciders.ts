import { streamName } from '../core/stream-name.ts';
import type { Channel, ContextDefinition, Template } from './config.model.ts';
import { checkChannel, checkContextDefinition, checkTemplate } from './config.validate.ts';
import { type ResourceCommand, type ResourceEvent, type ResourceState, resourceDecider } from './resource.decider.ts';

/**
 * The simple configuration aggregates (resource.decider.ts): the `CommHubChannel` code table (one stream
 * per code), templates (one stream per code, channel and exact language), context definitions.
 */
export const CHANNEL_CATEGORY = 'hubChannel';
export const TEMPLATE_CATEGORY = 'hubTemplate';
export const CONTEXT_CATEGORY = 'hubContext';

export const channelStream = (tenant: string, code: string) => streamName(CHANNEL_CATEGORY, tenant, code);
export const templateStream = (tenant: string, templateId: string) => streamName(TEMPLATE_CATEGORY, tenant, templateId);
export const contextStream = (tenant: string, id: string) => streamName(CONTEXT_CATEGORY, tenant, id);

export type ChannelEvent = ResourceEvent<'ChannelSaved', 'ChannelDeleted', Channel>;
export type ChannelState = ResourceState<Channel>;
export type ChannelCommand = ResourceCommand<Channel>;
export const channelDecider = resourceDecider({
  saved: 'ChannelSaved',
  deleted: 'ChannelDeleted',
  idOf: (c: Channel) => c.Code,
  check: checkChannel,
  codes: { invalid: 'CHANNEL.INVALID', notFound: 'CHANNEL.NOT_FOUND', exists: 'CHANNEL.EXISTS' },
  noun: 'channel',
});

export type TemplateEvent = ResourceEvent<'TemplateSaved', 'TemplateDeleted', Template>;
export type TemplateState = ResourceState<Template>;
export type TemplateCommand = ResourceCommand<Template>;
export const templateDecider = resourceDecider({
  saved: 'TemplateSaved',
  deleted: 'TemplateDeleted',
  idOf: (t: Template) => t.TemplateId,
  check: checkTemplate,
  codes: { invalid: 'TEMPLATE.INVALID', notFound: 'TEMPLATE.NOT_FOUND', exists: 'TEMPLATE.EXISTS' },
  noun: 'template',
});

export type ContextEvent = ResourceEvent<'ContextDefinitionSaved', 'ContextDefinitionDeleted', ContextDefinition>;
export type ContextState = ResourceState<ContextDefinition>;
export type ContextCommand = ResourceCommand<ContextDefinition>;
export const contextDecider = resourceDecider({
  saved: 'ContextDefinitionSaved',
  deleted: 'ContextDefinitionDeleted',
  idOf: (c: ContextDefinition) => c.ContextDefinitionId,
  check: checkContextDefinition,
  codes: { invalid: 'CONTEXT.INVALID', notFound: 'CONTEXT.NOT_FOUND', exists: 'CONTEXT.EXISTS' },
  noun: 'context definition',
});

export const CONFIG_EVENT_TYPES = [
  'ChannelSaved',
  'ChannelDeleted',
  'TemplateSaved',
  'TemplateDeleted',
  'ContextDefinitionSaved',
  'ContextDefinitionDeleted',
] as const;
