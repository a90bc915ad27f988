/**
 * Where a value of a JSON text sits, for marking an API's complaint in an editor: the API names the place
 * as a path (`data.amount[1]`, `["a.b"].numeric[2]`, the empty string for the whole document) and the
 * editor needs character offsets. The text must be valid JSON (it is only asked about after JSON.parse).
 */
export type Span = { from: number; to: number };
type Segment = string | number;

/** `data.amount[1]` → ['data', 'amount', 1]; a bracketed key is a JSON string (`["a.b"]`). */
export function parseJsonPath(path: string): Segment[] | null {
  const out: Segment[] = [];
  let i = 0;
  while (i < path.length) {
    const c = path[i];
    if (c === '.') {
      i++;
      continue;
    }
    if (c === '[') {
      const close = path[i + 1] === '"' ? closingQuote(path, i + 1) : path.indexOf(']', i);
      if (close < 0) return null;
      if (path[i + 1] === '"') {
        try {
          out.push(JSON.parse(path.slice(i + 1, close + 1)) as string);
        } catch {
          return null;
        }
        i = close + 2;
      } else {
        const n = Number(path.slice(i + 1, close));
        if (!Number.isInteger(n)) return null;
        out.push(n);
        i = close + 1;
      }
      continue;
    }
    const m = /^[^.[]+/.exec(path.slice(i));
    if (m === null) return null;
    out.push(m[0]);
    i += m[0].length;
  }
  return out;
}

function closingQuote(s: string, open: number): number {
  for (let i = open + 1; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '"') return i;
  }
  return -1;
}

/** The span of the value at `path` in `text`, or of the deepest part of the path that exists. */
export function locateJsonPath(text: string, path: string): Span | null {
  const segments = parseJsonPath(path);
  if (segments === null) return null;
  let pos = 0;
  const ws = () => {
    while (pos < text.length && /\s/.test(text[pos]!)) pos++;
  };
  // skips one value from pos; answers its span
  const skip = (): Span => {
    ws();
    const from = pos;
    const c = text[pos];
    if (c === '"') pos = closingQuote(text, pos) + 1;
    else if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      pos++;
      ws();
      if (text[pos] === close) pos++;
      else {
        for (;;) {
          if (c === '{') {
            skip();
            ws();
            pos++; // the colon
          }
          skip();
          ws();
          if (text[pos++] === close) break;
        }
      }
    } else {
      while (pos < text.length && !/[\s,\]}]/.test(text[pos]!)) pos++;
    }
    return { from, to: pos };
  };
  // enters the value at pos following one segment; false when it is not there
  const enter = (segment: Segment): boolean => {
    ws();
    const c = text[pos];
    if (c !== '{' && c !== '[') return false;
    pos++;
    ws();
    if (text[pos] === (c === '{' ? '}' : ']')) return false;
    for (let index = 0; ; index++) {
      if (c === '{') {
        const key = skip();
        const name = JSON.parse(text.slice(key.from, key.to)) as string;
        ws();
        pos++;
        if (name === segment) {
          ws();
          return true;
        }
      } else if (index === segment) {
        ws();
        return true;
      }
      skip();
      ws();
      if (text[pos++] !== ',') return false;
    }
  };
  let found: Span = { from: 0, to: text.length };
  for (const segment of segments) {
    const before = pos;
    if (!enter(segment)) {
      pos = before;
      break;
    }
    const start = pos;
    found = skip();
    pos = start;
  }
  return found;
}
