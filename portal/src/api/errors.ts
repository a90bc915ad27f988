/**
 * The platform's error answers as the portal shows them. Every API answers `{ code, message, details }`;
 * the OAuth endpoints `{ error, error_description }`. `details` names the offending fields in a few
 * shapes across the services: a list of `{ field, message, in? }` (request validation, most services), one
 * `{ field }` object, or such a list one level down (`{ problems: [...] }`, `{ violations: [...] }`).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: unknown;

  constructor(status: number, code: string, message: string, details: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

/** An ApiError from an answer's status and parsed body (whatever its shape). */
export function toApiError(status: number, body: unknown): ApiError {
  if (typeof body === 'object' && body !== null) {
    const b = body as Record<string, unknown>;
    if (typeof b.code === 'string' && typeof b.message === 'string')
      return new ApiError(status, b.code, b.message, b.details ?? null);
    if (typeof b.error === 'string')
      return new ApiError(
        status,
        b.error,
        typeof b.error_description === 'string' ? b.error_description : b.error,
        null,
      );
  }
  return new ApiError(
    status,
    `HTTP.${status}`,
    status === 0 ? 'the platform cannot be reached' : `the platform answered ${status}`,
    null,
  );
}

type FieldProblem = { field: string; message: string };

const asProblem = (x: unknown): FieldProblem | null => {
  if (typeof x !== 'object' || x === null) return null;
  const { field, message } = x as { field?: unknown; message?: unknown };
  if (typeof field !== 'string') return null;
  return { field, message: typeof message === 'string' ? message : 'is invalid' };
};

/** every `{ field, message }` the details name, in order */
export function fieldProblems(details: unknown): FieldProblem[] {
  if (Array.isArray(details)) return details.map(asProblem).filter((p): p is FieldProblem => p !== null);
  const one = asProblem(details);
  if (one !== null) return [one];
  if (typeof details === 'object' && details !== null) {
    return Object.values(details).flatMap((v) =>
      Array.isArray(v) ? v.map(asProblem).filter((p): p is FieldProblem => p !== null) : [],
    );
  }
  return [];
}

/**
 * The message for each form field the error's details name. A detail's field is matched to a form field
 * by its full dotted path (`target.url`), else by its path without list indexes (`redirect_uris.0` ->
 * `redirect_uris`), else by its first segment; details that match no field are left to the form's summary.
 */
export function fieldErrors(
  details: unknown,
  fields: readonly string[],
): { byField: Record<string, string>; unmatched: FieldProblem[] } {
  const byField: Record<string, string> = {};
  const unmatched: FieldProblem[] = [];
  for (const p of fieldProblems(details)) {
    const candidates = [p.field, p.field.replace(/\.\d+(?=\.|$)/g, ''), p.field.split('.')[0] ?? ''];
    const hit = candidates.find((c) => c !== '' && fields.includes(c));
    if (hit === undefined) unmatched.push(p);
    else byField[hit] ??= p.message;
  }
  return { byField, unmatched };
}
