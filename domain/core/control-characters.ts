// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Whether `s` holds a C0 control character or DEL: refused in secrets, names and redirect paths. */
export const hasControlCharacters = (s: string): boolean => CONTROL.test(s);
