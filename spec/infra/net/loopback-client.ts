// The outbound HTTP client as the tests use it (not a spec itself): their receivers listen on loopback,
// which the SSRF guard refuses unless allowlisted, so they allow it as the demo does (OUTBOUND_ALLOW).
import {
  createOutboundHttpClient,
  type OutboundHttpClient,
  type OutboundHttpClientOptions,
} from '../../../infra/net/outbound-http.client.ts';

export const LOOPBACK_ALLOW = ['127.0.0.1', '::1', 'localhost'];
/** OUTBOUND_ALLOW for the specs that start the platform */
export const LOOPBACK_OUTBOUND_ALLOW = LOOPBACK_ALLOW.join(',');

export const loopbackHttpClient = (o: Omit<OutboundHttpClientOptions, 'allow'> = {}): OutboundHttpClient =>
  createOutboundHttpClient({ allow: LOOPBACK_ALLOW, ...o });
