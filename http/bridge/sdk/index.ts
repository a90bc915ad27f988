// The event bridge SDK: the sender's client and the receiver's interface.

export type { BridgeEvent } from '../../../domain/bridge/model.ts';
export {
  createEventBridgeClient,
  type EventBridgeClient,
  type EventBridgeClientOptions,
  EventBridgeError,
  type EventInput,
  localDateTime,
  type PutEventResult,
  type PutEventsEntry,
  type PutEventsResult,
} from './client.ts';
export { type EventReceivedRest, RECEIVED_EVENT_PATH, receivedEventHandler } from './receiver.ts';
