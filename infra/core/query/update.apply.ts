import type { Update } from '../read-store.port.ts';
import { compareStrings, isPlainObject } from './bson-order.ts';
import { arrayIndex, parsePath } from './field-path.ts';
import { failUpdate, validateUpdate } from './update.validate.ts';

/* Applying a validated update to a document in memory, as MongoDB does (the embedded adapter's writes). */

function describe(v: unknown): string {
  return JSON.stringify(v) ?? String(v);
}

type Container = Record<string, unknown> | unknown[];

/** Walks to the parent of the last component, creating documents for missing components (MongoDB's $set). */
function parentFor(root: Record<string, unknown>, parts: readonly string[], path: string): Container {
  let cur: Container = root;
  for (let i = 0; i < parts.length - 1; i++) {
    const key = parts[i]!;
    let next: unknown;
    if (Array.isArray(cur)) {
      const index = arrayIndex(key);
      if (index < 0) failUpdate(`cannot create field "${key}" of ${path} in an array`);
      while (cur.length < index) cur.push(null);
      next = cur[index];
      if (next === undefined) cur[index] = next = {};
    } else {
      next = cur[key];
      if (next === undefined) cur[key] = next = {};
    }
    if (!Array.isArray(next) && !isPlainObject(next)) {
      failUpdate(`cannot create field "${parts[i + 1]}" of ${path} in ${describe(next)}`);
    }
    cur = next;
  }
  return cur;
}

function setAt(parent: Container, key: string, value: unknown, path: string): void {
  if (Array.isArray(parent)) {
    const index = arrayIndex(key);
    if (index < 0) failUpdate(`cannot create field "${key}" of ${path} in an array`);
    while (parent.length < index) parent.push(null);
    parent[index] = value;
  } else {
    parent[key] = value;
  }
}

function getAt(parent: Container, key: string): unknown {
  if (Array.isArray(parent)) {
    const index = arrayIndex(key);
    return index < 0 ? undefined : parent[index];
  }
  return Object.hasOwn(parent, key) ? parent[key] : undefined;
}

function unsetAt(root: Record<string, unknown>, parts: readonly string[]): void {
  let cur: unknown = root;
  for (let i = 0; i < parts.length - 1; i++) {
    if (!Array.isArray(cur) && !isPlainObject(cur)) return;
    cur = getAt(cur, parts[i]!);
  }
  const last = parts[parts.length - 1]!;
  if (Array.isArray(cur)) {
    // MongoDB keeps positions stable: unsetting an element leaves null in its place.
    const index = arrayIndex(last);
    if (index >= 0 && index < cur.length) cur[index] = null;
  } else if (isPlainObject(cur)) {
    delete cur[last];
  }
}

/** Compares paths component by component, numeric components by number: MongoDB's order of applying updates. */
function comparePaths(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    const nx = arrayIndex(x);
    const ny = arrayIndex(y);
    if (nx >= 0 && ny >= 0) return nx - ny;
    return compareStrings(x, y);
  }
  return a.length - b.length;
}

/**
 * Returns a new document with `update` applied (the input is not modified). `$set` creates missing
 * intermediate documents and pads arrays with null up to a numeric position; `$unset` of an array
 * element sets it to null; `$inc` of a missing field sets it. Like MongoDB (5.0+), fields are updated in
 * path order, so new fields are appended in lexicographic order. Throws on an invalid update, on a path
 * through a scalar, and on `$inc` of a non-number.
 */
export function applyUpdate<T extends Record<string, unknown>>(doc: T, update: Update): T {
  validateUpdate(update);
  const out = structuredClone(doc) as Record<string, unknown>;
  type Step = { parts: string[]; path: string; run(parent: Container, key: string): void };
  const steps: Step[] = [];
  for (const [path, value] of Object.entries(update.$set ?? {})) {
    steps.push({
      parts: parsePath(path),
      path,
      run: (parent, key) => setAt(parent, key, structuredClone(value), path),
    });
  }
  for (const [path, by] of Object.entries(update.$inc ?? {})) {
    steps.push({
      parts: parsePath(path),
      path,
      run: (parent, key) => {
        const current = getAt(parent, key);
        if (current !== undefined && typeof current !== 'number') {
          failUpdate(`cannot $inc ${path}: ${describe(current)} is not a number`);
        }
        setAt(parent, key, (current ?? 0) + by, path);
      },
    });
  }
  for (const path of update.$unset ?? []) steps.push({ parts: parsePath(path), path, run: () => {} });
  steps.sort((a, b) => comparePaths(a.parts, b.parts));
  const unset = new Set(update.$unset ?? []);
  for (const step of steps) {
    if (unset.has(step.path)) unsetAt(out, step.parts);
    else step.run(parentFor(out, step.parts, step.path), step.parts[step.parts.length - 1]!);
  }
  return out as T;
}
