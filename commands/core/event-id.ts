import { v5 as uuidv5 } from 'uuid';

/** Fixed namespace for the platform's derived ids (a v4 generated once; never change it). */
export const PLATFORM_NAMESPACE = '6d1f6a52-8f64-4b7c-9d3e-2f1c0a7b9e10';

/**
 * The id of the i-th event a command appends to a stream. Deterministic, so an append retried with the
 * same command id carries the same event ids and the store treats it as the same write; the stream is part
 * of it because one command may write to several streams (a username reservation, then the user).
 */
export const eventIdFor = (commandId: string, index: number, stream = ''): string =>
  uuidv5(stream === '' ? `${commandId}/${index}` : `${commandId}/${stream}/${index}`, PLATFORM_NAMESPACE);

/** A stable id derived from any name (e.g. an attempt id from a delivery key). */
export const derivedId = (name: string): string => uuidv5(name, PLATFORM_NAMESPACE);
