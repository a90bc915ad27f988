/**
 * The integer settings' one rule: absent or empty means the default; anything else must be an integer within
 * [min, max], or the problem is recorded (one line, the start reports them all together) and the default is used.
 */
export const envInt =
  (env: NodeJS.ProcessEnv, problems: string[]) =>
  (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return n;
  };
