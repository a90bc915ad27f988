import type {
  Channel,
  ContextDefinition,
  Definition,
  DeliveryRule,
  DeliveryService,
  Template,
} from './config.model.ts';
import type { FrequencyCap } from './frequency-cap.decider.ts';
import type { Violation } from './hub.errors.ts';
import type { ResourceGroup } from './import-lock.decider.ts';
import type { ChannelQuietHours } from './quiet-hours.ts';

/**
 * A tenant's hub configuration as one JSON document: the spec's data-import module `commhub`. Export writes
 * it, import reads it back (into the same or another tenant, or another environment). It holds channels,
 * delivery services (their nonsecret Settings only: signing secrets are never exported, a service created by
 * an import gets a new one), templates, context definitions, definition versions and delivery rules, and
 * the customer-policy configuration (frequency caps, channel quiet hours; never a recipient's preferences
 * or interactions: those are customer data), each sorted by id so equal configurations export equal
 * documents.
 *
 * Import is an upsert per resource: a resource that is not there is created, one that differs is replaced
 * (the whole resource, like PUT), an equal one is left alone. Nothing is deleted by an import.
 */
export const BUNDLE_MODULE = 'commhub';
export const BUNDLE_FORMAT_VERSION = 1;
/** per resource group */
export const MAX_BUNDLE_ITEMS = 2000;

export type ConfigBundle = {
  Module: typeof BUNDLE_MODULE;
  FormatVersion: number;
  /** informative: the tenant it was exported from */
  Tenant?: string;
  ExportedAt?: string;
  Channels: Channel[];
  DeliveryServices: DeliveryService[];
  Templates: Template[];
  ContextDefinitions: ContextDefinition[];
  Definitions: Definition[];
  DeliveryRules: DeliveryRule[];
  FrequencyCaps: FrequencyCap[];
  QuietHours: ChannelQuietHours[];
};

/** the bundle's sections, the resource group each one locks, and the field holding an item's id */
export const SECTIONS = [
  { section: 'Channels', group: 'channels', idField: 'Code' },
  { section: 'DeliveryServices', group: 'services', idField: 'ServiceId' },
  { section: 'Templates', group: 'templates', idField: 'TemplateId' },
  { section: 'ContextDefinitions', group: 'contexts', idField: 'ContextDefinitionId' },
  { section: 'Definitions', group: 'definitions', idField: 'DefinitionId' },
  // rules live in their definition's stream: the definitions lock covers them
  { section: 'DeliveryRules', group: 'definitions', idField: 'RuleId' },
  { section: 'FrequencyCaps', group: 'policies', idField: 'Category' },
  { section: 'QuietHours', group: 'policies', idField: 'Channel' },
] as const satisfies ReadonlyArray<{ section: keyof ConfigBundle; group: ResourceGroup; idField: string }>;

export type BundleSection = (typeof SECTIONS)[number]['section'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The bundle's shape: module and format, each section an array (absent: empty) of objects carrying their
 * id, no id twice in a section. The resources' own rules are checked by their deciders (the import's dry
 * run), so a bundle is refused for the same reasons a save would be.
 */
export function checkBundleShape(
  input: unknown,
): { ok: true; bundle: ConfigBundle } | { ok: false; violations: Violation[] } {
  const v: Violation[] = [];
  if (!isObject(input)) return { ok: false, violations: [{ field: '', message: 'must be a JSON object' }] };
  if (input.Module !== BUNDLE_MODULE) v.push({ field: 'Module', message: `must be ${BUNDLE_MODULE}` });
  if (input.FormatVersion !== BUNDLE_FORMAT_VERSION)
    v.push({ field: 'FormatVersion', message: `must be ${BUNDLE_FORMAT_VERSION}` });
  const sections: Record<string, unknown[]> = {};
  for (const { section, idField } of SECTIONS) {
    const raw = input[section] ?? [];
    if (!Array.isArray(raw)) {
      v.push({ field: section, message: 'must be an array' });
      continue;
    }
    if (raw.length > MAX_BUNDLE_ITEMS)
      v.push({ field: section, message: `must have at most ${MAX_BUNDLE_ITEMS} entries` });
    const seen = new Set<string>();
    raw.forEach((item, i) => {
      if (!isObject(item)) {
        v.push({ field: `${section}.${i}`, message: 'must be an object' });
        return;
      }
      const id = item[idField];
      if (typeof id !== 'string' || id === '') {
        v.push({ field: `${section}.${i}.${idField}`, message: 'is required' });
        return;
      }
      if (seen.has(id)) v.push({ field: `${section}.${i}.${idField}`, message: `${id} is given twice` });
      seen.add(id);
    });
    sections[section] = raw;
  }
  if (v.length > 0) return { ok: false, violations: v };
  return {
    ok: true,
    bundle: {
      Module: BUNDLE_MODULE,
      FormatVersion: BUNDLE_FORMAT_VERSION,
      ...(typeof input.Tenant === 'string' && { Tenant: input.Tenant }),
      ...(typeof input.ExportedAt === 'string' && { ExportedAt: input.ExportedAt }),
      Channels: sections.Channels as Channel[],
      DeliveryServices: sections.DeliveryServices as DeliveryService[],
      Templates: sections.Templates as Template[],
      ContextDefinitions: sections.ContextDefinitions as ContextDefinition[],
      Definitions: sections.Definitions as Definition[],
      DeliveryRules: sections.DeliveryRules as DeliveryRule[],
      FrequencyCaps: sections.FrequencyCaps as FrequencyCap[],
      QuietHours: sections.QuietHours as ChannelQuietHours[],
    },
  };
}

/** the resource groups whose locks an import of `bundle` needs, in the one order every import takes them */
export function groupsOf(bundle: ConfigBundle): ResourceGroup[] {
  const groups = new Set<ResourceGroup>();
  for (const { section, group } of SECTIONS) if (bundle[section].length > 0) groups.add(group);
  return [...groups];
}

const byId =
  <T>(idOf: (t: T) => string) =>
  (a: T, b: T) =>
    idOf(a) < idOf(b) ? -1 : idOf(a) > idOf(b) ? 1 : 0;

/** a bundle of the given resources, each section sorted by id */
export function makeBundle(
  tenant: string,
  at: string,
  r: Omit<ConfigBundle, 'Module' | 'FormatVersion' | 'Tenant' | 'ExportedAt'>,
): ConfigBundle {
  return {
    Module: BUNDLE_MODULE,
    FormatVersion: BUNDLE_FORMAT_VERSION,
    Tenant: tenant,
    ExportedAt: at,
    Channels: [...r.Channels].sort(byId((c: Channel) => c.Code)),
    DeliveryServices: [...r.DeliveryServices].sort(byId((s: DeliveryService) => s.ServiceId)),
    Templates: [...r.Templates].sort(byId((t: Template) => t.TemplateId)),
    ContextDefinitions: [...r.ContextDefinitions].sort(byId((c: ContextDefinition) => c.ContextDefinitionId)),
    Definitions: [...r.Definitions].sort(byId((d: Definition) => d.DefinitionId)),
    DeliveryRules: [...r.DeliveryRules].sort(byId((x: DeliveryRule) => x.RuleId)),
    FrequencyCaps: r.FrequencyCaps.map((c) => ({
      Category: c.Category,
      Limit: c.Limit,
      WindowSeconds: c.WindowSeconds,
    })).sort(byId((c: FrequencyCap) => c.Category)),
    QuietHours: r.QuietHours.map((h) => ({ Channel: h.Channel, Windows: h.Windows })).sort(
      byId((h: ChannelQuietHours) => h.Channel),
    ),
  };
}
