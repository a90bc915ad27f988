/**
 * The hub's dead-letter alerts as the event bridge carries them (docs/hub.md "Dead-letter alerts"): read by
 * the alert publisher and by the portal's incident view, so this module imports nothing.
 */
export const ALERT_SOURCE = 'commhub:alert';
export const ALERT_TYPE = 'commhub:alert:DeadLetter';
export const ALERT_BUS = 'platform';
