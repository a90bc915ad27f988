// The notification hub SDK: the sender's typed client (send and status) and the receiver's receipt call.
export {
  type Acknowledgement,
  type ConnectHubClient,
  type ConnectHubClientOptions,
  ConnectHubError,
  createConnectHubClient,
  DEFAULT_APP_NAME,
  type MessageSummary,
  type SendRequest,
  type SendRequestProgress,
  type TimelineEntry,
} from './client.ts';
