/**
 * The bridge's limits from the spec, in a module that imports nothing so that the portal (browser code) may
 * read them too: the rule editor offers as many targets as the API takes.
 */

/** targets per rule */
export const MAX_TARGETS_PER_RULE = 5;
/** a putEvent entry's size */
export const MAX_EVENT_BYTES = 256 * 1024;
/** entries per putEvent call */
export const MAX_BATCH_EVENTS = 10;
