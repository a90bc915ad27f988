import { isApiError } from '../api/errors.ts';

/**
 * An error in place: the API's code and message (and the fields its details name), in an alert. Anything
 * that is not an API error shows its message.
 */
export function ApiErrorView({
  error,
  title = 'The request was refused',
  onRetry,
}: {
  error: unknown;
  title?: string;
  onRetry?: () => void;
}) {
  const code = isApiError(error) ? error.code : 'ERROR';
  const message = error instanceof Error ? error.message : String(error);
  const status = isApiError(error) && error.status > 0 ? ` (HTTP ${error.status})` : '';
  return (
    <div className="api-error" role="alert">
      <p className="api-error-title">{title}</p>
      <p>
        <code className="api-error-code">{code}</code>
        {status} {message}
      </p>
      {onRetry !== undefined && (
        <button type="button" className="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
