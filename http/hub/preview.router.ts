import { type Request, Router } from 'express';
import type { ContextChoice, Previews, RulePreviewRequest } from '../../commands/hub/preview.queries.ts';
import type { MaskMethod } from '../../domain/hub/config.model.ts';
import type { ContentInput } from '../../domain/hub/preview.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import type { HttpMethod, RouteRegistry } from '../core/route-registry.ts';
import { tenantOf } from '../core/tenancy.ts';
import type { JsonSchema, RequestSchemas } from '../core/validate.ts';
import {
  HUB_ADMIN_SCOPE,
  PREVIEW_CONTENT_PATH,
  PREVIEW_EXTRACTION_PATH,
  PREVIEW_MASKING_PATH,
  RENDER_PREVIEW_BY_ID_PATH,
  RENDER_PREVIEW_PATH,
  RULE_PREVIEW_PATH,
} from './hub.paths.ts';
import * as S from './hub.schemas.ts';

/**
 * The hub's previews (spec "Endpoints" and "Send request rules" 6–7), scope hub:admin, the token's tenant.
 * Nothing is stored and nothing is sent; live policies (preferences, quotas, quiet hours, expiry, fallback
 * scheduling) are never evaluated. Displayed values are masked per the context's SensitiveFields; HTML
 * bodies are sanitized.
 *
 *   POST /context-definitions/previewExtraction  {Payload, Contexts, Variables, SensitiveFields?} → {Variables, Sources, MaskedVariables, MaskedPayload, Diagnostics}
 *   POST /context-definitions/previewMasking     {Value, Method, Pattern?} → {Masked, Method}   (route ours)
 *   POST /templates/previewContent               {Channel, LanguageId, ContentType, Subject?, Body} + saved {ContextDefinitionId, SamplePayload?} | inline {Context}
 *   POST /templates/renderPreview                {TemplateCode, Channel, LanguageId} + context: the stored ACTIVE content
 *   POST /templates/renderPreviewById?templateId= (required) + context in the body: a stored template in any status
 *   POST /delivery-rules/preview                 {DefinitionId, Rule, SamplePayload?, LanguageId?, Recipients?}
 */
export type PreviewRouterDeps = {
  previews: Previews;
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope'>;
  registry: RouteRegistry;
};

const str = (maxLength: number, extra: JsonSchema = {}): JsonSchema => ({ type: 'string', maxLength, ...extra });
const stringMap: JsonSchema = {
  type: 'object',
  additionalProperties: { type: 'string', maxLength: 512 },
  maxProperties: 200,
};
const method: JsonSchema = { type: 'string', enum: ['FULL', 'KEEP_EDGES', 'EMAIL', 'NAME', 'REGEX'] };
const sensitiveFields: JsonSchema = {
  type: 'array',
  maxItems: 200,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['Path', 'Method'],
    properties: { Path: str(512), Method: method, Pattern: str(200) },
  },
};
const payload: JsonSchema = { type: 'object', description: 'a sample business payload (nothing is stored)' };
const contextChoice = {
  ContextDefinitionId: str(64, { description: 'saved mode: a stored context definition' }),
  SamplePayload: { ...payload, description: "saved mode: the sample (omitted: the context's stored SamplePayload)" },
  Context: {
    type: 'object',
    additionalProperties: false,
    description: 'inline mode (not combined with ContextDefinitionId or SamplePayload)',
    properties: { Payload: payload, Contexts: stringMap, Variables: stringMap, SensitiveFields: sensitiveFields },
  },
};
const diagnostics: JsonSchema = { type: 'array', items: { type: 'string' } };
const contentResponse: JsonSchema = {
  type: 'object',
  properties: {
    Valid: { type: 'boolean' },
    Subject: { type: 'string' },
    BodyText: { type: 'string' },
    BodyHtml: { type: 'string', description: 'sanitized' },
    LanguageId: { type: 'string' },
    Diagnostics: diagnostics,
  },
};
const contentFields = {
  Channel: str(40, { example: 'EMAIL' }),
  LanguageId: str(32, { example: 'en_US' }),
  ContentType: { type: 'string', enum: ['TEXT', 'HTML'] },
  Subject: str(1000),
  Body: str(65_536),
};
const sourced = (value: JsonSchema): JsonSchema => ({
  type: 'object',
  properties: { Value: value, Source: { type: 'string', enum: ['RULE', 'DEFINITION', 'DEFAULT'] } },
});

const choiceOf = (b: Record<string, unknown>): ContextChoice => ({
  ...(b.ContextDefinitionId !== undefined && { ContextDefinitionId: String(b.ContextDefinitionId) }),
  ...(b.SamplePayload !== undefined && { SamplePayload: b.SamplePayload as Record<string, unknown> }),
  ...(b.Context !== undefined && { Context: b.Context as ContextChoice['Context'] }),
});

export function createPreviewRouter(deps: PreviewRouterDeps): Router {
  const { previews, bearer, registry } = deps;
  const router = Router();
  for (const path of [
    PREVIEW_EXTRACTION_PATH,
    PREVIEW_MASKING_PATH,
    PREVIEW_CONTENT_PATH,
    RENDER_PREVIEW_PATH,
    RENDER_PREVIEW_BY_ID_PATH,
    RULE_PREVIEW_PATH,
  ]) {
    router.use(path, bearer.authenticate, bearer.requireScope(HUB_ADMIN_SCOPE));
  }
  const route = (
    method: HttpMethod,
    path: string,
    summary: string,
    schemas: RequestSchemas & { response?: JsonSchema },
    handler: (req: Request) => Promise<unknown> | unknown,
    tag: string,
  ) =>
    registry.route(
      router,
      { method, path, summary, schemas, successStatus: 200, tags: [`hub ${tag}`] },
      async (req, res) => {
        res.json(await handler(req));
      },
    );
  const body = (req: Request) => (req.body ?? {}) as Record<string, unknown>;

  route(
    'post',
    PREVIEW_EXTRACTION_PATH,
    'extract a sample payload with unsaved Contexts and Variables: values (masked for display), source paths, diagnostics; nothing is sent',
    {
      body: {
        type: 'object',
        additionalProperties: false,
        properties: { Payload: payload, Contexts: stringMap, Variables: stringMap, SensitiveFields: sensitiveFields },
      },
      response: {
        type: 'object',
        properties: {
          Variables: { type: 'object' },
          Sources: { type: 'object' },
          MaskedVariables: { type: 'array', items: { type: 'string' } },
          MaskedPayload: { type: 'object' },
          Diagnostics: diagnostics,
        },
      },
    },
    (req) => previews.extraction(body(req) as Parameters<Previews['extraction']>[0]),
    'context definitions',
  );
  route(
    'post',
    PREVIEW_MASKING_PATH,
    'mask one value with a method (FULL, KEEP_EDGES, EMAIL, NAME or a constrained REGEX Pattern)',
    {
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['Value', 'Method'],
        properties: {
          Value: { description: 'a string, number, boolean, object or array' },
          Method: method,
          Pattern: str(200),
        },
      },
      response: { type: 'object', properties: { Masked: {}, Method: { type: 'string' } } },
    },
    (req) => {
      const b = body(req);
      return previews.masking({
        Value: b.Value,
        Method: b.Method as MaskMethod,
        ...(b.Pattern !== undefined && { Pattern: String(b.Pattern) }),
      });
    },
    'context definitions',
  );
  route(
    'post',
    PREVIEW_CONTENT_PATH,
    'render unsaved template content with a saved or an inline context (mutually exclusive): validated on the original sample, shown masked, HTML sanitized',
    {
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['Channel', 'LanguageId', 'ContentType', 'Body'],
        properties: { ...contentFields, ...contextChoice },
      },
      response: contentResponse,
    },
    (req) => {
      const b = body(req);
      const content: ContentInput = {
        Channel: String(b.Channel),
        LanguageId: String(b.LanguageId),
        ContentType: b.ContentType as ContentInput['ContentType'],
        ...(b.Subject !== undefined && { Subject: String(b.Subject) }),
        Body: String(b.Body),
      };
      return previews.content(tenantOf(req.res!), content, choiceOf(b));
    },
    'templates',
  );
  route(
    'post',
    RENDER_PREVIEW_PATH,
    'render the stored ACTIVE template of a code, channel and exact language with a saved or inline context',
    {
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['TemplateCode', 'Channel', 'LanguageId'],
        properties: { TemplateCode: str(64), Channel: str(40), LanguageId: str(32), ...contextChoice },
      },
      response: { ...contentResponse, properties: { ...contentResponse.properties, TemplateId: { type: 'string' } } },
    },
    (req) => {
      const b = body(req);
      return previews.renderStored(
        tenantOf(req.res!),
        { TemplateCode: String(b.TemplateCode), Channel: String(b.Channel), LanguageId: String(b.LanguageId) },
        choiceOf(b),
      );
    },
    'templates',
  );
  route(
    'post',
    RENDER_PREVIEW_BY_ID_PATH,
    'render a stored template (any status) by its id with a saved or inline context',
    {
      query: {
        type: 'object',
        additionalProperties: false,
        required: ['templateId'],
        properties: { templateId: str(200, { minLength: 1 }) },
      },
      body: { type: 'object', additionalProperties: false, properties: contextChoice },
      response: {
        ...contentResponse,
        properties: { ...contentResponse.properties, TemplateId: { type: 'string' }, Status: { type: 'string' } },
      },
    },
    (req) =>
      previews.renderById(
        tenantOf(req.res!),
        String((req.query as { templateId: string }).templateId),
        choiceOf(body(req)),
      ),
    'templates',
  );
  route(
    'post',
    RULE_PREVIEW_PATH,
    'preview an unsaved delivery rule against a saved definition version: condition, masked recipient, template availability, effective policies with their sources; runtime guards are never evaluated',
    {
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['DefinitionId', 'Rule'],
        properties: {
          DefinitionId: str(80),
          Rule: S.ruleUpdateBody,
          SamplePayload: payload,
          LanguageId: str(32),
          Recipients: (S.sendBody.properties as Record<string, JsonSchema>).Recipients!,
        },
      },
      response: {
        type: 'object',
        properties: {
          ConditionValid: { type: 'boolean' },
          ConditionMatched: { type: 'boolean' },
          Recipient: {
            type: 'object',
            properties: { RecipientId: { type: 'string' }, Address: { type: 'string' } },
            description: 'masked',
          },
          Template: {
            type: 'object',
            properties: {
              TemplateId: { type: 'string' },
              LanguageId: { type: 'string' },
              Status: { type: 'string' },
              Available: { type: 'boolean' },
            },
          },
          EffectivePolicies: {
            type: 'object',
            properties: {
              PreferencePolicy: sourced({ type: 'string' }),
              FrequencyCapPolicy: sourced({ type: 'string' }),
              QuietHoursPolicy: sourced({ type: 'string' }),
              RetryPolicy: sourced(S.retryPolicySchema),
            },
          },
          Outcome: {
            type: 'object',
            properties: { State: { type: 'string' }, Reason: { type: 'string' } },
            description: 'what a send accepted now would make of the message, live policies aside',
          },
          Violations: { type: 'array', items: { type: 'object' } },
          Diagnostics: diagnostics,
          RuntimeGuardsEvaluated: { type: 'boolean', enum: [false] },
        },
      },
    },
    (req) => previews.rule(tenantOf(req.res!), body(req) as unknown as RulePreviewRequest),
    'delivery rules',
  );
  return router;
}
