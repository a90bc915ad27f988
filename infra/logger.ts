import { type Logger, pino } from 'pino';
import type { Config } from './core/config.ts';

/** Structured JSON logs on stdout (pino). Secrets never reach a log: redact the usual suspects anyway. */
export function createLogger(config: Pick<Config, 'logLevel'>, name = 'platform'): Logger {
  return pino({
    name,
    level: config.logLevel,
    redact: {
      paths: [
        'password',
        '*.password',
        'secret',
        '*.secret',
        'authorization',
        '*.authorization',
        'req.headers.authorization',
      ],
      censor: '[redacted]',
    },
  });
}
