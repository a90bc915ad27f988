// The event bridge SDK: the sender's client and the receiver's interface.
export {
  createEventBridgeClient,
  EventBridgeError,
  localDateTime,
  type EventBridgeClient,
  type EventBridgeClientOptions,
  type EventInput,
  type PutEventResult,
  type PutEventsEntry,
  type PutEventsResult,
} from './client.ts';
export { RECEIVED_EVENT_PATH, receivedEventHandler, type EventReceivedRest } from './receiver.ts';
export type { BridgeEvent } from '../../../domain/bridge/model.ts';
