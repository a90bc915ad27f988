/**
 * One problem with one field of a command, named by a dotted path from the command's root
 * (`targets.0.params.2.form`), the same style as the HTTP layer's REQUEST.INVALID details.
 */
export type Violation = { field: string; message: string };

export const at = (base: string, field: string | number): string => (base === '' ? String(field) : `${base}.${field}`);
