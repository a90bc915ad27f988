// The notification hub SDK: the sender's typed client (send and status) and the receiver's receipt call.
export {
  ConnectHubError,
  createConnectHubClient,
  DEFAULT_APP_NAME,
  type Acknowledgement,
  type ConnectHubClient,
  type ConnectHubClientOptions,
  type MessageSummary,
  type SendRequest,
  type SendRequestProgress,
  type TimelineEntry,
} from './client.ts';
