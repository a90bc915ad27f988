import type { CollectionSpec } from './read-store.port.ts';

/** Rejects a malformed index declaration the same way on every read store adapter. */
export function checkSpec(spec: CollectionSpec): void {
  const names = new Set<string>();
  for (const index of spec.indexes ?? []) {
    if (typeof index.name !== 'string' || index.name === '') throw new Error('read store: an index needs a name');
    if (names.has(index.name)) throw new Error(`read store: index ${index.name} declared twice`);
    names.add(index.name);
    const fields = Object.entries(index.fields ?? {});
    if (fields.length === 0) throw new Error(`read store: index ${index.name} has no fields`);
    for (const [, dir] of fields) {
      if (dir !== 1 && dir !== -1) throw new Error(`read store: index ${index.name}: directions are 1 or -1`);
    }
  }
}
