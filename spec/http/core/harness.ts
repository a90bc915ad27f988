// Shared set-up for the http/core specs (not a spec itself): a real app on 127.0.0.1 port 0.
import { Router } from 'express';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { createApp, type ServiceRouter } from '../../../http/core/app.ts';
import type { ReadinessReport } from '../../../http/core/health.ts';
import { createHttpMetrics, type HttpMetrics } from '../../../http/core/metrics.ts';
import { type RunningServer, startHttpServer } from '../../../http/core/server.ts';

export type LogLine = Record<string, unknown> & { level: number; msg?: string };

export type TestApp = RunningServer & { logs: LogLine[]; rawLogs: string[]; metrics: HttpMetrics };

export async function startTestApp(
  options: {
    router?: Router;
    routers?: ServiceRouter[];
    readiness?: () => Promise<ReadinessReport>;
    bodyLimit?: string;
    asyncRequestContext?: boolean;
  } = {},
): Promise<TestApp> {
  const rawLogs: string[] = [];
  const logs: LogLine[] = [];
  const logger = pino(
    { level: 'debug' },
    {
      write(line: string) {
        rawLogs.push(line);
        logs.push(JSON.parse(line) as LogLine);
      },
    },
  );
  const metrics = createHttpMetrics(new Registry());
  const routers = options.routers ?? [{ service: 'bridge' as const, router: options.router ?? Router() }];
  const app = createApp({
    routers,
    logger,
    metrics,
    readiness: options.readiness ?? (async () => ({ ok: true, checks: [] })),
    ...(options.bodyLimit !== undefined ? { bodyLimit: options.bodyLimit } : {}),
    ...(options.asyncRequestContext !== undefined ? { asyncRequestContext: options.asyncRequestContext } : {}),
  });
  const running = await startHttpServer(app, { port: 0, host: '127.0.0.1', appPrototypes: true });
  running.adopt(app); // as the platform serves its app (infra/main.ts)
  return { ...running, logs, rawLogs, metrics };
}

export type Deferred<T> = { promise: Promise<T>; resolve(value: T): void; reject(err: unknown): void };

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets pending I/O callbacks and timers-at-0 run (a few event-loop turns), without timing anything. */
export const turns = async (n = 5): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise<void>((r) => setTimeout(r, 0));
};

/** A stack frame or a source path in a response body means something leaked. */
export const looksLikeStack = (text: string): boolean => /\n\s+at |node_modules|\.ts:\d+|\.js:\d+/.test(text);
