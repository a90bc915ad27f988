/**
 * Registry documents for the schema specs: OpenAPI 3.0 with the spec's Cloudevents schema (required id,
 * source, subject, time, type, data; data a $ref to the business-data schema) and the business schemas.
 */
export const cloudeventsSchema = (dataRef: string, extraProperties: Record<string, unknown> = {}) => ({
  type: 'object',
  required: ['id', 'source', 'subject', 'time', 'type', 'data'],
  properties: {
    id: { type: 'string' },
    source: { type: 'string' },
    subject: { type: 'string' },
    time: { type: 'string' },
    type: { type: 'string' },
    ...extraProperties,
    data: { $ref: dataRef },
  },
});

export const registryDocument = (o: {
  title: string;
  version: string;
  /** the business-data schema's name in components.schemas */
  data: string;
  schemas: Record<string, unknown>;
  cloudeventsProperties?: Record<string, unknown>;
}) => ({
  openapi: '3.0.3',
  info: { title: o.title, version: o.version },
  paths: {},
  components: {
    schemas: {
      Cloudevents: cloudeventsSchema(`#/components/schemas/${o.data}`, o.cloudeventsProperties),
      ...o.schemas,
    },
  },
});
