import { createSchemaCommands, createSchemaReader } from '../../commands/bridge/schemas.commands.ts';
import { PLATFORM_TENANT } from '../../domain/bridge/model.ts';
import type { Clock } from '../core/clock.port.ts';
import type { EventStore } from '../core/event-store.port.ts';

/**
 * The schemas of the platform's pre-set event sources ("every platform event source has a schema in the
 * registry"). The spec names three example event types and shows none of their payloads; the fields below
 * are ours. Fixed ids (the platform's own range, 1000000000000xx) so sources and events can name them;
 * tenants' generated ids are random 15-digit numbers and a tenant cannot take an id the platform uses.
 *
 * Seeded at first start (FLOW's seed calls seedPlatformSchemas): idempotent, with command ids derived from
 * (schema id, version), so concurrent starts write each thing once. A changed document must come with a
 * new info.version: it is then added as a new version (versions are immutable).
 */
export type PlatformSchemaDocument = {
  schemaId: string;
  name: string;
  /** the event source that publishes it (`<system>:<component>`) */
  source: string;
  eventType: string;
  document: Record<string, unknown>;
};

export const PLATFORM_SCHEMA_IDS = {
  createUser: '100000000000001',
  createProduct: '100000000000002',
  jobAlter: '100000000000003',
  commhubDeadLetter: '100000000000004',
} as const;

const str = (description: string, extra: Record<string, unknown> = {}) => ({ type: 'string', description, ...extra });

/** An OpenAPI 3.0 document of the spec's shape: a Cloudevents schema whose data references `dataName`. */
function cloudEventsDocument(o: {
  title: string;
  version: string;
  description: string;
  eventType: string;
  dataName: string;
  data: Record<string, unknown>;
}) {
  return {
    openapi: '3.0.3',
    info: { title: o.title, version: o.version, description: o.description },
    paths: {},
    components: {
      schemas: {
        Cloudevents: {
          type: 'object',
          required: ['id', 'source', 'subject', 'time', 'type', 'data'],
          properties: {
            id: str('unique per source'),
            source: str('the producer, <system>:<component>'),
            subject: str('refines the source, a colon-separated path'),
            time: str('local date-time without offset, YYYY-MM-DDThh:mm:ss', { example: '2026-03-01T10:00:00' }),
            type: str('the event type', { example: o.eventType }),
            publishtime: str('when the bridge received the event'),
            eventbusname: str('the bus the event was sent to'),
            publishaddr: str('address of the publisher'),
            data: { $ref: `#/components/schemas/${o.dataName}` },
          },
        },
        [o.dataName]: o.data,
      },
    },
  };
}

export function platformSchemaDocuments(): PlatformSchemaDocument[] {
  return [
    {
      schemaId: PLATFORM_SCHEMA_IDS.createUser,
      name: 'User created',
      source: 'iam:user',
      eventType: 'iam:User:CreateUser',
      document: cloudEventsDocument({
        title: 'iam:User:CreateUser',
        version: '1.0.0',
        description: 'A user was created in a tenant (identity and access management).',
        eventType: 'iam:User:CreateUser',
        dataName: 'CreateUser',
        data: {
          type: 'object',
          required: ['userId', 'tenant', 'username', 'createdAt'],
          properties: {
            userId: str('the user id'),
            tenant: str('the tenant code'),
            username: str('the sign-in name', { minLength: 1, maxLength: 128 }),
            name: str('display name'),
            email: str('mail address', { format: 'email', nullable: true }),
            roles: { type: 'array', items: { type: 'string' }, description: 'roles granted' },
            userSourceId: str('the user directory'),
            createdBy: str('who created the user', { nullable: true }),
            createdAt: str('when', { format: 'date-time' }),
          },
        },
      }),
    },
    {
      schemaId: PLATFORM_SCHEMA_IDS.createProduct,
      name: 'Product created',
      source: 'product:product',
      eventType: 'product:Product:CreateProduct',
      document: cloudEventsDocument({
        title: 'product:Product:CreateProduct',
        version: '1.0.0',
        description: 'A product was created in product maintenance.',
        eventType: 'product:Product:CreateProduct',
        dataName: 'CreateProduct',
        data: {
          type: 'object',
          required: ['productCode', 'productName', 'status', 'createdAt'],
          properties: {
            productCode: str('the product code', { minLength: 1, maxLength: 64 }),
            productName: str('the product name', { minLength: 1 }),
            productLine: str('business line', { nullable: true }),
            productVersion: { type: 'integer', format: 'int32', minimum: 1, description: 'product definition version' },
            status: str('lifecycle status', { enum: ['DRAFT', 'ACTIVE', 'SUSPENDED', 'RETIRED'] }),
            effectiveDate: str('first day the product can be sold', { format: 'date', nullable: true }),
            currency: str('ISO 4217 code', { pattern: '^[A-Z]{3}$' }),
            basePremium: { type: 'number', format: 'double', minimum: 0, nullable: true, description: 'base premium' },
            createdBy: str('who created it'),
            createdAt: str('when', { format: 'date-time' }),
          },
        },
      }),
    },
    {
      schemaId: PLATFORM_SCHEMA_IDS.jobAlter,
      name: 'Batch job alert',
      source: 'batchv2:job',
      eventType: 'batchv2:Alter:JobAlter',
      document: cloudEventsDocument({
        title: 'batchv2:Alter:JobAlter',
        version: '1.0.0',
        description:
          'A batch job needs attention. By default the platform rule sends the standard alert mail through the platform mail target; a tenant may switch that rule off and route the event itself.',
        eventType: 'batchv2:Alter:JobAlter',
        dataName: 'JobAlter',
        data: {
          type: 'object',
          required: ['jobId', 'jobName', 'status', 'message', 'tenant', 'occurredAt'],
          properties: {
            jobId: str('the job id', { minLength: 1 }),
            jobName: str('the job name', { minLength: 1 }),
            jobGroup: str('the job group', { nullable: true }),
            executionId: str('the run that raised the alert', { nullable: true }),
            status: str('what happened', { enum: ['FAILED', 'TIMEOUT', 'PARTIALLY_FAILED', 'SKIPPED', 'RECOVERED'] }),
            severity: str('how bad', { enum: ['INFO', 'WARNING', 'CRITICAL'], default: 'WARNING' }),
            message: str('human-readable summary', { maxLength: 4000 }),
            errorCode: str('the failure code', { nullable: true }),
            tenant: str('the tenant whose job it is'),
            occurredAt: str('when the alert was raised', { format: 'date-time' }),
            startedAt: str('when the run started', { format: 'date-time', nullable: true }),
            durationMs: {
              type: 'integer',
              format: 'int64',
              minimum: 0,
              nullable: true,
              description: 'run time so far',
            },
            retryCount: { type: 'integer', format: 'int32', minimum: 0, description: 'retries done' },
            recipients: {
              type: 'array',
              items: str('mail address', { format: 'email' }),
              description: 'extra alert recipients',
            },
          },
        },
      }),
    },
    {
      // the notification hub's dead-letter alert (docs/hub.md#dead-letter-alerts; commands/hub/alert.publisher.ts)
      schemaId: PLATFORM_SCHEMA_IDS.commhubDeadLetter,
      name: 'Notification hub dead-letter alert',
      source: 'commhub:alert',
      eventType: 'commhub:alert:DeadLetter',
      document: cloudEventsDocument({
        title: 'commhub:alert:DeadLetter',
        version: '1.0.0',
        description:
          'A notification message reached a dead-letter condition: a definite final failure (no retry, no fallback left) or an uncertain outcome (submission or final receipt not confirmed by its deadline). At-least-once: consumers dedupe by id.',
        eventType: 'commhub:alert:DeadLetter',
        dataName: 'DeadLetter',
        data: {
          type: 'object',
          required: ['AlertId', 'Classification', 'Tenant', 'NotificationId', 'MessageId', 'Reason', 'RaisedAt'],
          properties: {
            AlertId: str('the alert’s id (also the CloudEvent id): the same alert always has the same id'),
            Classification: str('what kind of dead letter', { enum: ['DEFINITE_FINAL_FAILURE', 'UNCERTAIN'] }),
            Cause: str('UNCERTAIN: why', {
              enum: ['SERVER_ERROR', 'READ_TIMEOUT', 'CONNECTION', 'LOST', 'RECEIPT_DEADLINE'],
              nullable: true,
            }),
            Reason: str('human-readable reason'),
            Tenant: str('the tenant'),
            NotificationId: str('the notification'),
            RequestId: str('the send request’s RequestId'),
            NotificationCode: str('the notification code'),
            MessageId: str('the message'),
            Role: str('the recipient role'),
            Channel: str('the channel'),
            State: str('the message state when the alert was raised'),
            AttemptId: str('the attempt concerned', { nullable: true }),
            AttemptNo: { type: 'integer', minimum: 1, nullable: true, description: 'its number' },
            HttpStatus: { type: 'integer', nullable: true, description: 'the receiver’s answer, if any' },
            SenderApp: str('caller attribution', { nullable: true }),
            RefType: str('business correlation', { nullable: true }),
            RefNumber: str('business correlation', { nullable: true }),
            RaisedAt: str('when the hub raised the alert (ISO instant)', { format: 'date-time' }),
          },
        },
      }),
    },
  ];
}

export type PlatformSchemaSeedReport = {
  created: string[];
  versionsAdded: Array<{ schemaId: string; version: string }>;
};

/**
 * Creates the platform schemas that are missing and adds a document's version when it is new. A platform
 * schema an administrator deleted stays deleted. A document changed without a new info.version throws
 * SCHEMA.VERSION_IMMUTABLE (a release bug: versions never change).
 */
export async function seedPlatformSchemas({
  eventStore,
  clock,
}: {
  eventStore: EventStore;
  clock: Clock;
}): Promise<PlatformSchemaSeedReport> {
  const commands = createSchemaCommands({ eventStore, clock });
  const reader = createSchemaReader({ eventStore });
  const ctx = { tenant: PLATFORM_TENANT, actor: 'system:seed' };
  const report: PlatformSchemaSeedReport = { created: [], versionsAdded: [] };
  for (const { schemaId, name, document } of platformSchemaDocuments()) {
    const version = (document.info as { version: string }).version;
    const existing = await reader.load(PLATFORM_TENANT, schemaId);
    if (existing === null) {
      const { created } = await commands.create(
        { schemaId, name, content: document },
        ctx,
        `platform-schemas/${schemaId}/create`,
      );
      if (created) report.created.push(schemaId);
    } else if (!existing.deleted) {
      // the same version with the same content is a no-op; with other content a 409 (bump info.version)
      const { added } = await commands.addVersion(
        schemaId,
        { version, content: document },
        ctx,
        `platform-schemas/${schemaId}/${version}`,
      );
      if (added) report.versionsAdded.push({ schemaId, version });
    }
  }
  return report;
}
