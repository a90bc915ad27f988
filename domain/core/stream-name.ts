/**
 * Stream names are `<category>-<tenant>.<id>`: the category is camelCase without `-`, so the first `-`
 * separates it from the rest. One stream per aggregate instance.
 */
export function streamName(category: string, tenant: string, id: string): string {
  if (!/^[a-z][A-Za-z0-9]*$/.test(category)) throw new Error(`bad stream category "${category}"`);
  if (tenant.includes('.') || tenant.length === 0) throw new Error(`bad tenant "${tenant}" for a stream name`);
  return `${category}-${tenant}.${id}`;
}

export function categoryOf(stream: string): string {
  const dash = stream.indexOf('-');
  return dash < 0 ? stream : stream.slice(0, dash);
}

export function parseStreamName(stream: string): { category: string; tenant: string; id: string } | null {
  const m = /^([a-z][A-Za-z0-9]*)-([^.]+)\.(.+)$/.exec(stream);
  return m ? { category: m[1]!, tenant: m[2]!, id: m[3]! } : null;
}
