/**
 * A rejected command. `code` is stable (`RULE.NOT_FOUND`), `status` is the HTTP status the problem-details
 * middleware answers with, `details` names the offending fields where there are any.
 */
export class DomainError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: unknown;

  constructor(code: string, status: number, message: string, details?: unknown) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.status = status;
    this.details = details;
  }
}

export const isDomainError = (e: unknown): e is DomainError => e instanceof DomainError;

export const notFound = (code: string, message: string, details?: unknown) =>
  new DomainError(code, 404, message, details);
export const conflict = (code: string, message: string, details?: unknown) =>
  new DomainError(code, 409, message, details);
export const invalid = (code: string, message: string, details?: unknown) =>
  new DomainError(code, 400, message, details);
export const forbidden = (code: string, message: string, details?: unknown) =>
  new DomainError(code, 403, message, details);
