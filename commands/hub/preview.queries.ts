import {
  type Channel,
  type ContextDefinition,
  type DeliveryRule,
  type DeliveryService,
  type MaskMethod,
  type Template,
  templateIdOf,
} from '../../domain/hub/config.model.ts';
import { hubError, type Violation } from '../../domain/hub/hub.errors.ts';
import { checkMaskPattern, maskWith } from '../../domain/hub/masking.ts';
import { languageFor } from '../../domain/hub/plan.ts';
import {
  type ContentInput,
  type ContentPreview,
  type ContextInput,
  checkContentInput,
  checkContextInput,
  contentOfTemplate,
  type ExtractionPreview,
  previewContent,
  previewExtraction,
  previewRule,
  type RulePreview,
  sampleOf,
} from '../../domain/hub/preview.ts';
import type { RecipientInput } from '../../domain/hub/send-request.ts';
import type { ConfigCommands } from './config.commands.ts';
import { type HubSettings, numberSetting, SETTING } from './hub.contracts.ts';

/**
 * The hub's previews (spec "Send request rules" 6 and 7, and the stored-content template previews): they
 * read configuration (live, through the definition cache) and never write anything: no event, no read-model
 * row, no notification, no live policy evaluated. The domain does the work (domain/hub/preview.ts).
 *
 * Context modes of previewContent and the template render previews (mutually exclusive; both given: 400):
 * - saved: `ContextDefinitionId` with an optional `SamplePayload` (omitted: the context's stored sample);
 * - inline: `Context: {Payload, Contexts, Variables, SensitiveFields}`, with neither a ContextDefinitionId
 *   nor a top-level SamplePayload.
 */
export type ContextChoice = {
  ContextDefinitionId?: string;
  SamplePayload?: Record<string, unknown>;
  Context?: {
    Payload?: Record<string, unknown>;
    Contexts?: Record<string, string>;
    Variables?: Record<string, string>;
    SensitiveFields?: ContextInput['SensitiveFields'];
  };
};

export type RulePreviewRequest = {
  DefinitionId: string;
  Rule: Omit<DeliveryRule, 'RuleId' | 'DefinitionId' | 'Enabled'> & { Enabled?: boolean };
  SamplePayload?: Record<string, unknown>;
  LanguageId?: string;
  Recipients?: RecipientInput[];
};

export type PreviewDeps = {
  config: ConfigCommands;
  settings: HubSettings;
  defaults: { maxRenderedLength: number };
};

/** 400 PREVIEW.INVALID listing the violations, if any */
function refuseInvalid(what: string, violations: Violation[]): void {
  if (violations.length > 0)
    throw hubError(
      'PREVIEW.INVALID',
      `invalid ${what}: ${violations.map((v) => `${v.field} ${v.message}`).join('; ')}`,
      violations,
    );
}

export function createPreviews(deps: PreviewDeps) {
  const { config } = deps;
  const maxLength = (tenant: string) =>
    numberSetting(deps.settings, tenant, SETTING.maxRenderedLength, deps.defaults.maxRenderedLength, 1, 10_000_000);

  async function savedContext(tenant: string, id: string): Promise<ContextDefinition> {
    const saved = await config.contexts.get(tenant, id);
    if (saved === null) throw hubError('CONTEXT.NOT_FOUND', `no context definition ${id}`, { ContextDefinitionId: id });
    return saved.resource;
  }

  /** the context and sample of a saved or inline choice (none: no context, an empty sample) */
  async function resolveContext(
    tenant: string,
    c: ContextChoice,
  ): Promise<{ context: ContextInput | undefined; payload: Record<string, unknown> }> {
    if (c.Context !== undefined) {
      if (c.ContextDefinitionId !== undefined || c.SamplePayload !== undefined) {
        throw hubError(
          'PREVIEW.CONTEXT_MODE_CONFLICT',
          'give either a saved context (ContextDefinitionId, SamplePayload) or an inline Context, not both',
          [
            {
              field: c.ContextDefinitionId !== undefined ? 'ContextDefinitionId' : 'SamplePayload',
              message: 'is not combined with an inline Context',
            },
          ],
        );
      }
      const context: ContextInput = {
        Contexts: c.Context.Contexts ?? {},
        Variables: c.Context.Variables ?? {},
        SensitiveFields: c.Context.SensitiveFields ?? [],
      };
      const violations = checkContextInput(context, 'Context.');
      refuseInvalid('inline context', violations);
      return { context, payload: c.Context.Payload ?? {} };
    }
    if (c.ContextDefinitionId !== undefined) {
      const context = await savedContext(tenant, c.ContextDefinitionId);
      return { context, payload: sampleOf(c.SamplePayload, context) };
    }
    return { context: undefined, payload: c.SamplePayload ?? {} };
  }

  async function content(tenant: string, input: ContentInput, choice: ContextChoice): Promise<ContentPreview> {
    const violations = checkContentInput(input);
    refuseInvalid('content', violations);
    const { context, payload } = await resolveContext(tenant, choice);
    const [preview, channel] = await Promise.all([
      maxLength(tenant).then((max) => previewContent(input, context, payload, max)),
      config.channels.get(tenant, input.Channel),
    ]);
    // a send would fail CHANNEL_NOT_REGISTERED: say so (the content itself may still be fine)
    if (channel === null || !channel.resource.Enabled)
      preview.Diagnostics.push(`channel ${input.Channel} is not registered (or disabled) in CommHubChannel`);
    return preview;
  }

  return {
    /** POST /context-definitions/previewExtraction */
    extraction(input: {
      Payload?: Record<string, unknown>;
      Contexts?: Record<string, string>;
      Variables?: Record<string, string>;
      SensitiveFields?: ContextInput['SensitiveFields'];
    }): ExtractionPreview {
      const context: ContextInput = {
        Contexts: input.Contexts ?? {},
        Variables: input.Variables ?? {},
        SensitiveFields: input.SensitiveFields ?? [],
      };
      const violations = checkContextInput(context);
      refuseInvalid('context', violations);
      return previewExtraction(context, input.Payload ?? {});
    },

    /** POST /templates/previewContent: unsaved content with a saved or inline context */
    content,

    /** POST /templates/renderPreview: the stored ACTIVE template of a code, channel and exact language */
    async renderStored(
      tenant: string,
      ids: { TemplateCode: string; Channel: string; LanguageId: string },
      choice: ContextChoice,
    ): Promise<ContentPreview & { TemplateId: string }> {
      const templateId = templateIdOf(ids);
      const saved = await config.templates.get(tenant, templateId);
      if (saved === null || saved.resource.Status !== 'ACTIVE')
        throw hubError('TEMPLATE.NOT_FOUND', `no ACTIVE template ${templateId} (exact language; no fallback)`, {
          TemplateId: templateId,
        });
      return { TemplateId: templateId, ...(await content(tenant, contentOfTemplate(saved.resource), choice)) };
    },

    /** POST /templates/renderPreviewById?templateId=: a stored template in any status (drafts are previewed before activation) */
    async renderById(
      tenant: string,
      templateId: string,
      choice: ContextChoice,
    ): Promise<ContentPreview & { TemplateId: string; Status: Template['Status'] }> {
      const saved = await config.templates.get(tenant, templateId);
      if (saved === null) throw hubError('TEMPLATE.NOT_FOUND', `no template ${templateId}`, { TemplateId: templateId });
      return {
        TemplateId: templateId,
        Status: saved.resource.Status,
        ...(await content(tenant, contentOfTemplate(saved.resource), choice)),
      };
    },

    /** POST /context-definitions/previewMasking: one value masked with one method */
    masking(input: { Value: unknown; Method: MaskMethod; Pattern?: string }): { Masked: unknown; Method: MaskMethod } {
      if (input.Method === 'REGEX') {
        const why = checkMaskPattern(input.Pattern);
        if (why !== null) throw hubError('PREVIEW.INVALID', why, [{ field: 'Pattern', message: why }]);
      } else if (input.Pattern !== undefined)
        throw hubError('PREVIEW.INVALID', 'Pattern is only for Method REGEX', [
          { field: 'Pattern', message: 'is only for Method REGEX' },
        ]);
      return { Masked: maskWith(input.Value, input.Method, input.Pattern), Method: input.Method };
    },

    /** POST /delivery-rules/preview: an unsaved rule against a saved definition version */
    async rule(tenant: string, input: RulePreviewRequest): Promise<RulePreview> {
      const definition = await config.definitions.get(tenant, input.DefinitionId);
      if (definition === null)
        throw hubError('DEFINITION.NOT_FOUND', `no definition ${input.DefinitionId}`, {
          DefinitionId: input.DefinitionId,
        });
      const context =
        definition.ContextDefinitionId === undefined
          ? undefined
          : ((await config.contexts.get(tenant, definition.ContextDefinitionId))?.resource ?? undefined);
      const rule: DeliveryRule = {
        ...input.Rule,
        RuleId: `${input.DefinitionId}:preview`,
        DefinitionId: input.DefinitionId,
        Enabled: input.Rule.Enabled ?? true,
      };
      const request = {
        Recipients: input.Recipients ?? [],
        ...(input.LanguageId !== undefined && { LanguageId: input.LanguageId }),
      };
      const language = languageFor(rule, request, definition);
      const templateId =
        language === undefined
          ? undefined
          : templateIdOf({ TemplateCode: rule.TemplateCode, Channel: rule.Channel, LanguageId: language });
      const [template, service, channel] = await Promise.all([
        templateId === undefined ? null : config.templates.get(tenant, templateId),
        config.services.get(tenant, rule.ServiceId),
        config.channels.get(tenant, rule.Channel),
      ]);
      return previewRule({
        definition,
        context,
        rule,
        payload: sampleOf(input.SamplePayload, context),
        request,
        templates: new Map<string, Template>(
          template === null || templateId === undefined ? [] : [[templateId, template.resource]],
        ),
        services: new Map<string, DeliveryService>(service === null ? [] : [[rule.ServiceId, service.resource]]),
        channels: new Map<string, Channel>(channel === null ? [] : [[rule.Channel, channel.resource]]),
        maxRenderedLength: await maxLength(tenant),
      });
    },
  };
}

export type Previews = ReturnType<typeof createPreviews>;
