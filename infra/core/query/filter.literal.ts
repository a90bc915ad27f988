import { isPlainObject } from './bson-order.ts';

/** Every filter error reads `read store filter: …` and names the offending part. */
export function failFilter(message: string): never {
  throw new Error(`read store filter: ${message}`);
}

/** A literal operand: JSON values only (no undefined, Date, RegExp, NaN) and no `$`-prefixed keys. */
export function checkLiteral(v: unknown, where: string): void {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return;
    case 'number':
      if (!Number.isFinite(v)) failFilter(`${where}: ${String(v)} is not a finite number`);
      return;
    case 'undefined':
      failFilter(`${where}: undefined is not a value (omit the condition, or use $exists: false)`);
  }
  if (v === null) return;
  if (Array.isArray(v)) {
    v.forEach((el, i) => {
      checkLiteral(el, `${where}[${i}]`);
    });
    return;
  }
  if (!isPlainObject(v))
    failFilter(`${where}: only JSON values are supported (got ${Object.prototype.toString.call(v)})`);
  for (const [k, el] of Object.entries(v)) {
    if (k.startsWith('$')) failFilter(`${where}: unknown operator ${k}`);
    checkLiteral(el, `${where}.${k}`);
  }
}

/** `{$gt: 1}` is an operator object; `{a: 1}` is a literal document. */
export function isOperatorObject(v: unknown): v is Record<string, unknown> {
  return isPlainObject(v) && Object.keys(v).some((k) => k.startsWith('$'));
}
