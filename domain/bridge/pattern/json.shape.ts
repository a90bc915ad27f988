/** Shape checks on decoded JSON, shared by the validators. */
export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** How an unexpected value is named in an error message. */
export const describeJson = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'an array'
      : typeof v === 'object'
        ? 'an object'
        : v === undefined
          ? 'nothing'
          : JSON.stringify(v);
