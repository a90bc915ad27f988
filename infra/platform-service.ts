import type { Router } from 'express';
import type { Logger } from 'pino';
import type { Reactor } from '../commands/core/reactor.ts';
import type { WorkEngine } from '../commands/core/work-engine.ts';
import type { Decider } from '../domain/core/decider.ts';
import type { DomainEvent } from '../domain/core/event.ts';
import type { BearerAuth } from '../http/core/bearer-auth.ts';
import type { RouteRegistry } from '../http/core/route-registry.ts';
import type { Projection } from '../projections/core/projection.ts';
import type { Clock } from './core/clock.port.ts';
import type { Config } from './core/config.ts';
import type { EventStore } from './core/event-store.port.ts';
import type { LogConsumer } from './core/log-consumer.ts';
import type { ReadStore } from './core/read-store.port.ts';
import type { RunningParts } from './platform-status.ts';

export const SERVICES = ['bridge', 'identity', 'audit', 'workflow', 'hub', 'portal', 'operations'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** Deciders by stream category, for `platform replay --state`. */
export type DeciderRegistry = Record<string, Pick<Decider<unknown, DomainEvent, unknown>, 'initialState' | 'evolve'>>;

/** What every service is built from. */
export type ServiceDeps = {
  config: Config;
  eventStore: EventStore;
  readStore: ReadStore;
  clock: Clock;
  log: Logger;
  /**
   * The platform's identity, for the services built after it (every router verifies tokens with the identity
   * provider's bearer middleware; the bridge reads tenant profiles). Absent only while identity is built.
   */
  identity?: IdentityFacade;
  /**
   * What the process runs, for the operations API: every projection of the platform, and the running
   * parts (log reader, engines), undefined until the composition root has started them
   */
  platform?: {
    projections(): Projection[];
    parts(): RunningParts | undefined;
    /** the platform's service list, for the incident view's deciders by service (`platform replay --state`) */
    modules(): ServiceModule[];
  };
};

export type IdentityFacade = {
  bearer: BearerAuth;
  /** a tenant's profile (TENANT_PROFILE target parameters: its support mail group) */
  tenantProfile(tenant: string): Promise<Record<string, unknown> | null>;
  /**
   * the platform tenant token of `tenant` for the hub's webhook calls: a token of its `hub-webhooks.<tenant>`
   * machine client, minted in this process (registered first when missing); undefined when it is disabled
   */
  tenantToken(tenant: string): Promise<{ token: string; expiresIn: number } | undefined>;
};

/** A periodic job of a service (a sweep), run where workers run. */
export type ServiceTimer = { name: string; everyMs: number; run(): Promise<void> };

/**
 * A built service, in the one shape the composition root, health, metrics and the CLI loop over.
 * What runs where:
 * - `router`: mounted in processes that serve the service (`--services`);
 * - `caches`: in-memory views fed by the log reader, in every process that builds the service;
 * - `reactors`, `engines`, `timers` (and the service's projections, run as one group): where workers run.
 */
export type PlatformService = {
  name: ServiceName;
  router: Router;
  /** the routes the service declared (its OpenAPI document) */
  registry?: RouteRegistry;
  reactors: Reactor[];
  engines: WorkEngine[];
  caches: LogConsumer[];
  timers: ServiceTimer[];
  /** first-start data, where the service is served; idempotent */
  seed(): Promise<unknown>;
  /** before the HTTP server drains: end long-polls */
  close(): Promise<void>;
  /** after the workers stopped: close connection pools */
  dispose(): Promise<void>;
  /** the identity service provides the platform's auth to the services built after it */
  identity?: IdentityFacade;
  /** projections the service is rebuilding now (the operations API's rebuilds), for health and metrics */
  rebuilding?(): string[];
};

/**
 * One entry of the platform's service list (infra/services.ts). `projections` and `deciders` are static, so
 * the CLI lists, rebuilds and replays without building the service.
 */
export type ServiceModule = {
  name: ServiceName;
  projections(): Projection[];
  deciders(): DeciderRegistry;
  create(deps: ServiceDeps): Promise<PlatformService>;
};

/** A decider as a registry entry. */
export const deciderEntry = <E extends DomainEvent, S>(d: Pick<Decider<never, E, S>, 'initialState' | 'evolve'>) =>
  d as unknown as DeciderRegistry[string];
