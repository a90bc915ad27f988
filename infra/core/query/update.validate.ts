import type { Update } from '../read-store.port.ts';
import { isPlainObject } from './bson-order.ts';
import { parsePath } from './field-path.ts';
import { checkLiteral } from './filter.literal.ts';

/* The read store's update subset: `$set`, `$unset` (a list of paths) and `$inc`. */

const UPDATE_OPERATORS = new Set(['$set', '$unset', '$inc']);

/** Every update error reads `read store update: …`. */
export function failUpdate(message: string): never {
  throw new Error(`read store update: ${message}`);
}

function updatePath(path: string, op: string): string[] {
  let parts: string[];
  try {
    parts = parsePath(path);
  } catch (e) {
    return failUpdate(`${op}: ${(e as Error).message}`);
  }
  if (parts[0] === 'id') failUpdate(`${op} ${path}: the id of a document is immutable`);
  return parts;
}

/**
 * Throws when `update` uses anything but `$set $unset $inc`, an invalid path, a path of `id`, an
 * undefined or non-JSON value, a non-number `$inc`, or two paths that overlap (`a` and `a.b`), which
 * MongoDB rejects as a conflict.
 */
export function validateUpdate(update: Update): void {
  if (!isPlainObject(update)) failUpdate('must be a plain object');
  const paths: string[] = [];
  for (const [op, arg] of Object.entries(update)) {
    if (!UPDATE_OPERATORS.has(op)) failUpdate(`unsupported operator ${op} (supported: $set $unset $inc)`);
    if (arg === undefined) continue;
    if (op === '$unset') {
      if (!Array.isArray(arg)) failUpdate('$unset needs an array of paths');
      for (const p of arg) {
        if (typeof p !== 'string') failUpdate('$unset needs an array of paths');
        updatePath(p, op);
        paths.push(p);
      }
      continue;
    }
    if (!isPlainObject(arg)) failUpdate(`${op} needs an object of path: value`);
    for (const [p, v] of Object.entries(arg)) {
      updatePath(p, op);
      paths.push(p);
      if (op === '$inc') {
        if (typeof v !== 'number' || !Number.isFinite(v)) failUpdate(`$inc ${p} needs a finite number`);
      } else {
        try {
          checkLiteral(v, `$set ${p}`);
        } catch (e) {
          failUpdate((e as Error).message.replace(/^read store filter: /, ''));
        }
      }
    }
  }
  for (let i = 0; i < paths.length; i++) {
    for (let j = i + 1; j < paths.length; j++) {
      const [a, b] = [paths[i]!, paths[j]!];
      if (a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`)) failUpdate(`paths ${a} and ${b} conflict`);
    }
  }
}

/** Throws unless `limit`, how many documents one findManyAndUpdate may take, is a whole number of at least 1. */
export function validateUpdateLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1)
    throw new Error(`read store: findManyAndUpdate needs a whole limit of at least 1, got ${String(limit)}`);
}
