/**
 * The hub's paths that commands/ needs as well as http/ (the dispatch tells receivers where to call back).
 * The other paths live in http/hub/hub.paths.ts, which re-exports these.
 */

export const HUB_BASE = '/comm/v1';
/** where a receiver reports evidence for an attempt (spec "Endpoints": `POST /comm/v1/callbacks/receipt`) */
export const RECEIPT_PATH = `${HUB_BASE}/callbacks/receipt`;
