import { createHash } from 'node:crypto';
import { fold } from '../../domain/core/decider.ts';
import { DomainError } from '../../domain/core/domain-error.ts';
import {
  type Channel,
  type ContextDefinition,
  type DeliveryService,
  type Template,
  templateIdOf,
} from '../../domain/hub/config.model.ts';
import { rulesOf, selectDefinition } from '../../domain/hub/definition.decider.ts';
import { hubError } from '../../domain/hub/hub.errors.ts';
import { isTimeZone } from '../../domain/hub/local-time.ts';
import { maskPayload } from '../../domain/hub/masking.ts';
import { notificationDecider, notificationStream } from '../../domain/hub/notification.decider.ts';
import type {
  Acknowledgement,
  NotificationEvent,
  NotificationRecord,
  NotificationState,
  PlannedMessage,
} from '../../domain/hub/notification.model.ts';
import { languageFor, planMessages } from '../../domain/hub/plan.ts';
import { normalizeSendRequest, requestFingerprint, type SendRequestInput } from '../../domain/hub/send-request.ts';
import type { SnapshotContent } from '../../domain/hub/snapshot.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler } from '../core/command-handler.ts';
import { derivedId, newCommandId } from '../core/event-id.ts';
import type { ConfigCommands } from './config.commands.ts';
import { type LoadedNotification, loadedNotification } from './dispatch.process.ts';
import { type HubSettings, numberSetting, SETTING } from './hub.contracts.ts';
import type { Snapshots } from './snapshots.ts';

/**
 * `POST /comm/v1/notifications/send` (spec "Send request rules" 1–4):
 *
 * 1. The RequestId is claimed per tenant: the notification's id is derived from (tenant, RequestId), so its
 *    stream is the claim. A stored notification with the same request fingerprint answers 200 with the
 *    stored acknowledgement (never recomputed, no new dispatch); another fingerprint answers 409 and
 *    creates nothing. A send does not read the stream first (a new RequestId is the common case, and its
 *    append with `no_stream` is the check): the stream is read when the append meets it, when the request
 *    fails on this instant's configuration (a replay is answered from what was stored, whatever the
 *    configuration says now), and before a snapshot would be captured (a replay captures nothing).
 * 2. The enabled definition version effective now is selected (none: 404), its rules, context, templates,
 *    services and channels read from their streams (this instant's configuration), the snapshot captured or
 *    reused, and every message prepared (domain/hub/plan.ts). Every message failing synchronous validation:
 *    422, nothing stored.
 * 3. Notification, messages, attachment references and acknowledgement are ONE event appended to the new
 *    stream (`no_stream`): committed before any receiver is called. Two concurrent sends of one RequestId:
 *    one append wins (201), the other finds the stream and answers as a replay (200, or 409).
 * 4. Dispatch happens after the commit: on the work engine (projections/hub/dispatch.projection.ts writes
 *    the due items), and, where this process runs workers, started at once (`afterAccept`,
 *    dispatch.worker.ts createInlineDispatch).
 *
 * The stored payload is masked per the context definition's SensitiveFields; extraction and rendering used
 * the original values.
 */
export type SendResult = { status: 201 | 200; acknowledgement: Acknowledgement };

/** a send request prepared for acceptance (or found accepted already: the replay's answer) */
export type Prepared =
  | { kind: 'replay'; result: SendResult }
  | {
      kind: 'new';
      stream: string;
      hash: string;
      notification: NotificationRecord;
      messages: PlannedMessage[];
      acknowledgement: Acknowledgement;
    };

export type SenderDeps = {
  eventStore: EventStore;
  clock: Clock;
  config: ConfigCommands;
  snapshots: Snapshots;
  settings: HubSettings;
  /** process defaults of `comm-hub.time-zone` and `comm-hub.template.max-rendered-length` */
  defaults: { timeZone: string; maxRenderedLength: number };
  /**
   * called after a first acceptance with the stream, its PLANNED messages and the state the acceptance left
   * (the process may dispatch at once, without reading back what it just wrote)
   */
  afterAccept?: (stream: string, plannedMessageIds: string[], accepted: LoadedNotification) => void;
};

export const notificationIdFor = (tenant: string, requestId: string) =>
  derivedId(`hub-notification/${tenant}/${requestId}`);

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** the request's normalized fingerprint hashed: what an equivalent replay shares (a TCC Try's repeat too) */
export const requestHashOf = (input: SendRequestInput) => sha256(requestFingerprint(input));

export function createSender(deps: SenderDeps) {
  const { eventStore, clock, config } = deps;
  const handle = commandHandler(eventStore, notificationDecider);

  const replay = (state: NotificationState, hash: string): SendResult => {
    if (state.status !== 'accepted') throw new Error('replay of a notification that is not there');
    if (state.notification.RequestHash !== hash) {
      throw hubError(
        'SEND.REQUEST_CONFLICT',
        `RequestId ${state.notification.RequestId} was accepted with other content`,
        {
          RequestId: state.notification.RequestId,
          NotificationId: state.notification.NotificationId,
        },
      );
    }
    return { status: 200, acknowledgement: state.acknowledgement };
  };

  async function timeZoneOf(tenant: string): Promise<string> {
    const tz = await deps.settings.get(tenant, SETTING.timeZone);
    return tz !== undefined && isTimeZone(tz) ? tz : deps.defaults.timeZone;
  }

  /** the stored notification's answer to a request of this hash (200, or 409), or null: the RequestId is new */
  async function storedAnswer(stream: string, hash: string): Promise<SendResult | null> {
    const existing = await eventStore.readStream(stream);
    return existing.length > 0
      ? replay(fold(notificationDecider, existing as unknown as NotificationEvent[]), hash)
      : null;
  }

  /**
   * Rules 1–2 without the append: a replay's answer, or the notification prepared for acceptance (snapshot
   * captured or reused). `send` appends it at once; a TCC Try keeps it in its command until Confirm.
   * `readFirst: false` (a send): the stream is read only if a new snapshot would be captured; the caller
   * answers a replay from the append's conflict, or from the stream when this throws.
   */
  async function prepare(
    input: SendRequestInput,
    ctx: CommandContext,
    o: { readFirst?: boolean } = {},
  ): Promise<Prepared> {
    const { tenant } = ctx;
    const readFirst = o.readFirst ?? true;
    const timeZone = await timeZoneOf(tenant);
    const normalized = normalizeSendRequest(input, timeZone);
    if (!normalized.ok) {
      throw hubError(
        'SEND.INVALID',
        `invalid send request: ${normalized.violations.map((v) => `${v.field} ${v.message}`).join('; ')}`,
        normalized.violations,
      );
    }
    const request = normalized.request;
    const hash = requestHashOf(input);
    const notificationId = notificationIdFor(tenant, request.RequestId);
    const stream = notificationStream(tenant, notificationId);

    if (readFirst) {
      const stored = await storedAnswer(stream, hash);
      if (stored !== null) return { kind: 'replay', result: stored };
    }

    const now = clock.now().toISOString();
    const definitions = await config.definitions.state(tenant, request.NotificationCode);
    const definition = selectDefinition(definitions, now);
    if (definition === undefined) {
      throw hubError(
        'SEND.DEFINITION_NOT_FOUND',
        `no enabled definition of ${request.NotificationCode} is effective at ${now}`,
        { NotificationCode: request.NotificationCode },
      );
    }
    const rules = rulesOf(definitions, definition.DefinitionId);
    const context: ContextDefinition | undefined =
      definition.ContextDefinitionId === undefined
        ? undefined
        : ((await config.contexts.get(tenant, definition.ContextDefinitionId))?.resource ?? undefined);

    // this instant's configuration for the rules: templates in the resolved language, services, channels
    const templateIds = new Set<string>();
    for (const rule of rules) {
      const language = languageFor(rule, request, definition);
      if (language !== undefined)
        templateIds.add(templateIdOf({ TemplateCode: rule.TemplateCode, Channel: rule.Channel, LanguageId: language }));
    }
    const [templates, services, channels] = await Promise.all([
      loadAll<Template>([...templateIds], async (id) => (await config.templates.get(tenant, id))?.resource),
      loadAll<DeliveryService>(
        [...new Set(rules.map((r) => r.ServiceId))],
        async (id) => (await config.services.get(tenant, id))?.resource,
      ),
      loadAll<Channel>(
        [...new Set(rules.map((r) => r.Channel))],
        async (code) => (await config.channels.get(tenant, code))?.resource,
      ),
    ]);
    const maxRenderedLength = await numberSetting(
      deps.settings,
      tenant,
      SETTING.maxRenderedLength,
      deps.defaults.maxRenderedLength,
      1,
      10_000_000,
    );

    const plan = planMessages({
      notificationId,
      now,
      request,
      definition,
      context,
      rules,
      templates,
      services,
      channels,
      maxRenderedLength,
    });
    if (!plan.ok)
      throw hubError(
        'SEND.RECIPIENTS_INVALID',
        `invalid Recipients: ${plan.violations.map((v) => `${v.field} ${v.message}`).join('; ')}`,
        plan.violations,
      );
    if (plan.messages.every((m) => m.State === 'FAILED')) {
      throw hubError(
        'SEND.NOT_SENDABLE',
        plan.messages.length === 0
          ? `definition ${definition.DefinitionId} has no enabled delivery rule`
          : 'every message fails synchronous validation: nothing was stored',
        {
          DefinitionId: definition.DefinitionId,
          Messages: plan.messages.map((m) => ({
            Role: m.Role,
            Channel: m.Channel,
            RuleId: m.RuleId,
            Reason: m.Reason,
            Diagnostics: m.Diagnostics,
          })),
        },
      );
    }

    const content: SnapshotContent = {
      Definition: definition,
      ...(context !== undefined && { ContextDefinition: context }),
      Rules: rules,
      Templates: [...templates.values()],
      Services: [...services.values()],
      Channels: [...channels.values()],
    };
    if (!readFirst && !deps.snapshots.known(tenant, content)) {
      const stored = await storedAnswer(stream, hash);
      if (stored !== null) return { kind: 'replay', result: stored };
    }
    const snapshotId = await deps.snapshots.ensure(content, definition, now, ctx);

    const notification: NotificationRecord = {
      NotificationId: notificationId,
      RequestId: request.RequestId,
      RequestHash: hash,
      SnapshotId: snapshotId,
      DefinitionId: definition.DefinitionId,
      NotificationCode: definition.NotificationCode,
      Version: definition.Version,
      NotificationClass: definition.NotificationClass,
      ...(request.LanguageId !== undefined && { LanguageId: request.LanguageId }),
      ...(request.SenderApp !== undefined && { SenderApp: request.SenderApp }),
      ...(request.RefType !== undefined && { RefType: request.RefType }),
      ...(request.RefNumber !== undefined && { RefNumber: request.RefNumber }),
      ...(request.SendAt !== undefined && { SendAt: request.SendAt }),
      ...(request.ExpiresAt !== undefined && { ExpiresAt: request.ExpiresAt }),
      ...(request.OriginalNotificationId !== undefined && { OriginalNotificationId: request.OriginalNotificationId }),
      TimeZone: timeZone,
      Payload: maskPayload(request.Payload, context?.SensitiveFields ?? [], context?.Contexts ?? {}),
      Attachments: request.Attachments,
      AcceptedAt: now,
    };
    const acknowledgement: Acknowledgement = {
      NotificationId: notificationId,
      RequestId: request.RequestId,
      SnapshotId: snapshotId,
      AcceptedAt: now,
      Messages: plan.messages.map((m) => ({
        MessageId: m.MessageId,
        Role: m.Role,
        Channel: m.Channel,
        State: m.State,
        ...(m.Reason !== undefined && { Reason: m.Reason }),
      })),
    };
    return { kind: 'new', stream, hash, notification, messages: plan.messages, acknowledgement };
  }

  /**
   * Rule 3: the prepared notification is ONE append with `no_stream`; a stream that is there by now (a
   * concurrent send of the RequestId, or a TCC materialization run again after a crash) answers as a replay.
   */
  /** `p` prepared in the context's tenant */
  async function accept(p: Extract<Prepared, { kind: 'new' }>, ctx: CommandContext): Promise<SendResult> {
    const now = clock.now().toISOString();
    const r = await handle({
      stream: p.stream,
      command: {
        type: 'Accept',
        notification: p.notification,
        messages: p.messages,
        acknowledgement: p.acknowledgement,
        now,
      },
      // a fresh command id per request (hence fresh event ids): a concurrent send of the same RequestId, with
      // the same content or not, must meet a conflict (then 200 or 409), not an append the store would take
      // for a retry of the same write because its event ids are already stored; time-ordered (a UUID v7),
      // its event ids land at the end of the store's id index
      commandId: `send/${newCommandId()}`,
      now,
      context: ctx,
      from: 'new',
    });
    if (r.duplicate === true) return replay(r.state, p.hash);
    const first = r.events[0];
    if (deps.afterAccept !== undefined && r.state.status === 'accepted' && first !== undefined) {
      deps.afterAccept(
        p.stream,
        p.messages.filter((m) => m.State === 'PLANNED').map((m) => m.MessageId),
        loadedNotification(r.state, r.revision, first),
      );
    }
    return { status: 201, acknowledgement: p.acknowledgement };
  }

  /** sends `input` in the context's tenant */
  async function send(input: SendRequestInput, ctx: CommandContext): Promise<SendResult> {
    let p: Prepared;
    try {
      p = await prepare(input, ctx, { readFirst: false });
    } catch (err) {
      // refused on this instant's configuration (404, 422, a recipient rule): a replay of a stored notification
      // is answered from it instead. A malformed request stays a 400 whatever its RequestId names (it was
      // refused before the stream was read when sends read it first), and a 409 has read the stream already.
      if (!(err instanceof DomainError) || err.code === 'SEND.INVALID' || err.code === 'SEND.REQUEST_CONFLICT')
        throw err;
      const stored = await storedAnswerOf(ctx.tenant, input);
      if (stored !== null) return stored;
      throw err;
    }
    return p.kind === 'replay' ? p.result : accept(p, ctx);
  }

  /** storedAnswer for a request as it came (null when its RequestId cannot name a notification) */
  async function storedAnswerOf(tenant: string, input: SendRequestInput): Promise<SendResult | null> {
    // past normalization (SEND.INVALID is not answered this way): the request is an object with a RequestId
    return storedAnswer(notificationStream(tenant, notificationIdFor(tenant, input.RequestId)), requestHashOf(input));
  }

  return { send, prepare, accept, timeZoneOf };
}

async function loadAll<T>(ids: string[], get: (id: string) => Promise<T | undefined>): Promise<Map<string, T>> {
  const found = await Promise.all(ids.map(async (id) => [id, await get(id)] as const));
  return new Map(found.filter((e): e is readonly [string, Awaited<T>] => e[1] !== undefined) as Array<[string, T]>);
}

export type Sender = ReturnType<typeof createSender>;
