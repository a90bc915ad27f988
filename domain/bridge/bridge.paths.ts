/**
 * The bridge's paths that commands/ needs as well as http/. `RECEIVED_EVENT_PATH`: where a service mounts the
 * SDK's receivedEventHandler (http/bridge/sdk/receiver.ts), so where the preset HTTP client target POSTs when
 * a registered base URL comes without its own receive path.
 */
export const RECEIVED_EVENT_PATH = '/eventbridge/receivedEvent';
