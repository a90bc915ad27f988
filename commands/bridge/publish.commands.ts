import { createHash } from 'node:crypto';
import { bridgeError } from '../../domain/bridge/bridge.errors.ts';
import { resolveBusRef } from '../../domain/bridge/bus.decider.ts';
import { differingFields } from '../../domain/bridge/duplicate-content.ts';
import { type BridgeEvent, type Bus, MAX_BATCH_EVENTS, PLATFORM_TENANT } from '../../domain/bridge/model.ts';
import {
  type EventAcceptedData,
  type PublishedState,
  type Publisher,
  publishedEventDecider,
  publishedStream,
} from '../../domain/bridge/published-event.decider.ts';
import { validatePutEvent } from '../../domain/bridge/put-event.validate.ts';
import { isDomainError } from '../../domain/core/domain-error.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import { addBounded } from '../../infra/core/bounded.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { commandHandler } from '../core/command-handler.ts';
import type { SchemaValidator } from './bridge.contracts.ts';
import type { BusLookup } from './buses.commands.ts';
import type { CallerTokens } from './caller-tokens.store.ts';
import { appendSchedulings, type KnownTarget, type PreparedScheduling } from './delivery.scheduler.ts';
import type { EventRouter } from './router.process.ts';

/**
 * putEvent. One event: validate → resolve the bus → publishing rules → schema → accept.
 *
 * Publishing rules (spec "Bus types", "Event sources"):
 * - a plain `eventBusName` is the caller's own custom bus, or one of the platform's (reserved names,
 *   domain/bridge/bus.decider.ts); `<tenant>/<name>` names a bus of another tenant: 403 at once, whether
 *   or not it exists (its existence is not revealed); an unknown bus: 404;
 * - a custom bus takes events only from its own tenant (403), and never from a platform event source
 *   ("platform event sources can only send to the platform bus": 403);
 * - a platform or baseline bus takes events only from the sources the platform registered on it (a tenant
 *   application's events go to the tenant's own custom bus: 403), and only the event types those sources
 *   were registered with (an empty list allows any type). The event belongs to the tenant whose token
 *   published it: platform sources run for a tenant and publish with its token, which is how platform
 *   rules come to apply to every tenant's events and a tenant's own rules on the platform bus to its own.
 * - the data is validated against `dataSchemaId`, or, when absent, against the schema of the registered
 *   source (every platform event source has one): 400 listing every violation.
 * - accepted: one append with `no_stream` (published-event.decider.ts); a resent (source, id) answers
 *   `duplicate: true` and routes nothing again. The same Idempotency-Key (command id) answers as the first
 *   time did.
 */
/** `contentDiffers`: a duplicate whose content is not the first one's (present only then) */
export type PublishResult = { eventId: string; duplicate: boolean; contentDiffers?: true };

export type BatchEntryResult = PublishResult | { errorCode: string; errorMessage: string; details?: unknown };
export type BatchResult = { failedEntryCount: number; entries: BatchEntryResult[] };

/**
 * correlation and causation for the event's metadata (the request's ids); `callerToken`: the caller's
 * bearer token and its expiry, kept (sealed, outside the log) for Bearer `caller` connections
 */
export type PublishContext = {
  correlationId?: string;
  causationId?: string;
  /** `ref`: the token's id (jti): one kept copy serves every event published with the token */
  callerToken?: { token: string; expiresAt: Date; ref?: string };
};

/** how many caller-token refs this process remembers having kept (so it does not ask the store again) */
const KNOWN_TOKEN_REFS = 10_000;

export type PublisherDeps = {
  eventStore: EventStore;
  clock: Clock;
  buses: BusLookup;
  schemaValidator: SchemaValidator;
  /** where accepted events' caller tokens are kept (commands/bridge/caller-tokens.store.ts); none: not kept */
  callerTokens?: Pick<CallerTokens, 'keep' | 'has' | 'forget'>;
  /**
   * Routing at acceptance: EventAccepted and EventRouted in one append (the compiled matcher costs
   * microseconds). Absent, or when routing fails (its read model unreachable), the event is accepted alone
   * and the router reactor routes it.
   */
  router?: Pick<EventRouter, 'routeNew'>;
  /**
   * The deliveries of an event routed at acceptance, decided before its append (bridge.service.ts): their
   * schedulings, each with its first attempt started where a worker's slot is free, go in the acceptance's
   * commit, each only if the acceptance goes ahead (a duplicate schedules nothing). The answer waits for that
   * commit, not for any call: under more load than the deliveries keep up with, publishers slow down instead
   * of a backlog growing unseen. A delivery that cannot be decided is left out and told to `tolerate`: the
   * deliveries read model keeps a due item for every delivery routed, should its scheduling be missing.
   */
  deliveries?: (
    routed: RoutedRecord,
    targets: KnownTarget,
    accepted: EventAcceptedData,
    tolerate: (err: unknown) => void,
  ) => Promise<PreparedScheduling[]>;
  log?: { warn(obj: object, msg: string): void };
};

/** EventRouted as appended by putEvent, with its stream */
export type RoutedRecord = Pick<RecordedEvent, 'id' | 'type' | 'data' | 'stream' | 'metadata'>;

/** The event's key: its id in answers, the trace and its stream name. */
export const publishedKey = (tenant: string, bus: Pick<Bus, 'tenant' | 'name'>, source: string, id: string): string =>
  createHash('sha256').update(`${tenant}\n${bus.tenant}/${bus.name}\n${source}\n${id}`).digest('hex');

const forbidden = (message: string, details: unknown) => bridgeError('BUS.FORBIDDEN', message, details);
const busNotFound = (name: string) => bridgeError('BUS.NOT_FOUND', `no bus ${name}`, { eventBusName: name });

export function createPublisher({
  eventStore,
  clock,
  buses,
  schemaValidator,
  callerTokens,
  router,
  deliveries,
  log,
}: PublisherDeps) {
  const accept = commandHandler(eventStore, publishedEventDecider);
  // refs of caller tokens known to be kept: a client publishing many events with one token costs one write
  const knownRefs = new Set<string>();
  const remember = (ref: string) => {
    addBounded(knownRefs, ref, KNOWN_TOKEN_REFS);
  };

  /** resolves and authorizes the bus; answers it and the registered source used for the schema, if any */
  async function checkBus(event: BridgeEvent, caller: Publisher): Promise<{ bus: Bus; schemaId: string | undefined }> {
    const ref = resolveBusRef(event.eventBusName, caller.tenant);
    if (ref === null) throw busNotFound(event.eventBusName);
    if (ref.tenant !== caller.tenant && ref.tenant !== PLATFORM_TENANT) {
      throw forbidden('tenant events can only be published to the tenant’s own custom bus', {
        eventBusName: event.eventBusName,
      });
    }
    const bus = await buses.getBus(ref.tenant, ref.name);
    if (bus === null) throw busNotFound(event.eventBusName);
    if (bus.kind === 'custom') {
      if (bus.tenant !== caller.tenant) {
        throw forbidden('tenant events can only be published to the tenant’s own custom bus', {
          eventBusName: event.eventBusName,
        });
      }
      if (await buses.isPlatformSource(event.source)) {
        throw forbidden(
          `${event.source} is a platform event source: platform event sources can only send to the platform bus`,
          {
            eventBusName: event.eventBusName,
            source: event.source,
          },
        );
      }
      return { bus, schemaId: event.dataSchemaId };
    }
    const source = await buses.getSource(bus.tenant, bus.name, event.source);
    if (source === null) {
      throw forbidden(
        `${bus.name} is a ${bus.kind} bus: it takes events only from the event sources the platform registered on it; tenant events go to the tenant’s own custom bus`,
        { eventBusName: event.eventBusName, source: event.source },
      );
    }
    if (source.eventTypes.length > 0 && !source.eventTypes.includes(event.type)) {
      throw bridgeError(
        'SOURCE.TYPE_NOT_ALLOWED',
        `event source ${source.name} is not registered to publish ${event.type} on ${bus.name}`,
        {
          source: source.name,
          type: event.type,
          eventTypes: source.eventTypes,
        },
      );
    }
    return { bus, schemaId: event.dataSchemaId ?? source.schemaId };
  }

  async function checkSchema(tenant: string, schemaId: string, event: BridgeEvent): Promise<void> {
    let violations;
    try {
      violations = await schemaValidator.validate(tenant, schemaId, event.data);
    } catch (err) {
      if (isDomainError(err) && err.code === 'SCHEMA.UNKNOWN') {
        throw bridgeError('SCHEMA.UNKNOWN', `no schema ${schemaId} in the registry`, [
          {
            field: event.dataSchemaId !== undefined ? 'dataSchemaId' : 'source',
            message: `names no schema in the registry (${schemaId})`,
          },
        ]);
      }
      throw err;
    }
    if (violations !== null && violations.length > 0) {
      throw bridgeError(
        'EVENT.SCHEMA_VIOLATION',
        `data does not follow schema ${schemaId}: ${violations.map((v) => `${v.path} ${v.message}`).join('; ')}`,
        // the validator names fields as dotted paths under `data` (data.items.0.name), like every 400 here
        violations.map((v) => ({ field: v.path, message: v.message, keyword: v.keyword, schemaId })),
      );
    }
  }

  async function routeAtAcceptance(accepted: EventAcceptedData) {
    if (router === undefined) return undefined;
    try {
      return await router.routeNew(accepted);
    } catch (err) {
      log?.warn(
        { eventKey: accepted.key, err: err instanceof Error ? err.message : String(err) },
        'routing at acceptance failed; the event is accepted alone and the router routes it',
      );
      return undefined;
    }
  }

  /** the schedulings of an event routed at acceptance (none when they cannot be decided: the due items take them) */
  async function deliveriesOf(
    stream: string,
    acceptance: { events: ReadonlyArray<Omit<RoutedRecord, 'stream'>>; state: PublishedState },
    targets: KnownTarget,
  ): Promise<PreparedScheduling[]> {
    const event = acceptance.events.find((e) => e.type === 'EventRouted');
    if (deliveries === undefined || event === undefined || acceptance.state.status !== 'routed') return [];
    try {
      return await deliveries({ ...event, stream }, targets, acceptance.state.accepted, warnSettle(stream));
    } catch (err) {
      warnSettle(stream)(err);
      return [];
    }
  }

  const warnSettle = (stream: string) => (err: unknown) =>
    log?.warn(
      { stream, err: err instanceof Error ? err.message : String(err) },
      'scheduling at acceptance failed; the due items of the routing take it',
    );

  async function publish(
    input: unknown,
    caller: Publisher,
    ctx: PublishContext,
    commandId: string,
  ): Promise<PublishResult> {
    const validated = validatePutEvent(input);
    if (!validated.ok) {
      throw bridgeError(
        'EVENT.INVALID',
        `invalid event: ${validated.errors.map((e) => `${e.field || 'event'} ${e.message}`).join('; ')}`,
        validated.errors,
      );
    }
    const event = validated.event;
    const { bus, schemaId } = await checkBus(event, caller);
    if (schemaId !== undefined) await checkSchema(caller.tenant, schemaId, event);

    const key = publishedKey(caller.tenant, bus, event.source, event.id);
    const stream = publishedStream(caller.tenant, key);
    const now = clock.now().toISOString();
    const context = {
      tenant: caller.tenant,
      actor: `${caller.subject}@${caller.tenant}`,
      ...(ctx.correlationId !== undefined && { correlationId: ctx.correlationId }),
      ...(ctx.causationId !== undefined && { causationId: ctx.causationId }),
    };
    // The caller's token is kept before the append: once the event is in the log, routing and a delivery may
    // run at once and must find it. Kept once per token (its jti): later events with the same token find it.
    // Without a jti it is kept under the event key, only when there is none yet (a duplicate must not replace
    // the token of the event it repeats), and a duplicate removes what it wrote itself.
    const token = ctx.callerToken;
    const ref = token?.ref ?? key;
    let keptHere = false;
    if (callerTokens !== undefined && token !== undefined && token.token !== '' && !knownRefs.has(ref)) {
      if (!(await callerTokens.has(ref))) {
        await callerTokens.keep(ref, token.token, token.expiresAt);
        keptHere = token.ref === undefined;
      }
      if (token.ref !== undefined) remember(ref);
    }
    const data: Omit<EventAcceptedData, 'receivedAt'> = {
      key,
      event,
      bus: bus.name,
      busTenant: bus.tenant,
      busKind: bus.kind,
      tenant: caller.tenant,
      publisher: caller,
      ...(token !== undefined && token.token !== '' && { callerTokenRef: ref }),
    };
    // routed as it is accepted, in the same append; the router reactor routes what is accepted alone
    const routed = await routeAtAcceptance({ ...data, receivedAt: now });
    // `new`: acceptance is only possible on a stream that does not exist yet, and the append's `no_stream`
    // makes that true atomically; a conflict means the (source, id) was published before: a duplicate
    const acceptance = accept.prepare({
      stream,
      command:
        routed === undefined
          ? { type: 'AcceptEvent', data, now }
          : [
              { type: 'AcceptEvent', data, now },
              { type: 'RouteEvent', data: routed.routing, now },
            ],
      commandId,
      now,
      context,
      from: 'new',
    });
    const schedulings = routed === undefined ? [] : await deliveriesOf(stream, acceptance, routed.targets);
    const answers = await appendSchedulings(eventStore, schedulings, acceptance.request);
    // the workers that took a delivery make their calls now (a duplicate's: none, nothing was appended)
    schedulings.forEach(
      (s, i) =>
        void s
          .settle(answers.schedulings[i])
          .catch((err: unknown) =>
            log?.warn(
              { stream: s.stream, err: err instanceof Error ? err.message : String(err) },
              'a delivery scheduled at acceptance failed after its commit; its due item takes it',
            ),
          ),
    );
    const accepted = await acceptance.settle(answers.first!);
    if (accepted.duplicate === true && keptHere) await callerTokens!.forget(ref).catch(() => undefined); // left behind, the expiry sweep removes it
    if (accepted.duplicate !== true) return { eventId: key, duplicate: false };
    // the spec's duplicate rule stands (nothing routed); a repeat with other content is said so, and noted
    const first = accepted.state.status === 'none' ? undefined : accepted.state.accepted.event;
    const differs = first === undefined ? [] : differingFields(first, event);
    if (differs.length === 0) return { eventId: key, duplicate: true };
    await accept({
      stream,
      command: { type: 'NoteDuplicate', data: { publisher: caller, differs }, now },
      commandId: `${commandId}/duplicate`,
      now,
      context,
    });
    return { eventId: key, duplicate: true, contentDiffers: true };
  }

  /**
   * Up to MAX_BATCH_EVENTS events, each published on its own, in order (AWS PutEvents): a failed entry
   * does not stop the others; the answer lists one result per entry. Store failures are not an entry's
   * fault: they fail the whole request (503), and a retry with the same Idempotency-Key is safe.
   */
  async function publishBatch(
    inputs: unknown[],
    caller: Publisher,
    ctx: PublishContext,
    commandId: string,
  ): Promise<BatchResult> {
    if (inputs.length === 0 || inputs.length > MAX_BATCH_EVENTS) {
      throw bridgeError('EVENT.BATCH_SIZE', `a batch holds 1-${MAX_BATCH_EVENTS} events, got ${inputs.length}`, [
        { field: '', message: `must hold 1-${MAX_BATCH_EVENTS} events` },
      ]);
    }
    const entries: BatchEntryResult[] = [];
    for (const [i, input] of inputs.entries()) {
      try {
        entries.push(await publish(input, caller, ctx, `${commandId}/${i}`));
      } catch (err) {
        if (!isDomainError(err)) throw err;
        entries.push({
          errorCode: err.code,
          errorMessage: err.message,
          ...(err.details !== undefined && err.details !== null && { details: err.details }),
        });
      }
    }
    return { failedEntryCount: entries.filter((e) => 'errorCode' in e).length, entries };
  }

  return { publish, publishBatch };
}

export type PublisherService = ReturnType<typeof createPublisher>;
