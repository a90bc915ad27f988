import { renderParam } from '../../../domain/bridge/conversion/index.ts';
import type { LiveDelivery } from '../../../domain/bridge/delivery.decider.ts';
import { type BridgeEvent, PLATFORM_TENANT } from '../../../domain/bridge/model.ts';
import type { ConfigCenter } from '../bridge.contracts.ts';
import type { ResolvedParams } from '../delivery.contracts.ts';

export type TenantProfile = { supportMailGroup?: string | undefined } & Record<string, unknown>;

export type ParamSources = {
  configCenter: ConfigCenter;
  /** the identity directory's tenant record (`getTenant(code)`): TENANT_PROFILE parameters read it */
  tenantProfile(tenant: string): Promise<TenantProfile | null | undefined>;
};

/**
 * A delivery's target parameters, rendered for the call (renderParam): ENV_PARAM from the configuration
 * center of the event's tenant, then the platform's for a platform rule; TENANT_PROFILE from the tenant's
 * profile (its support mail group). A parameter that cannot be resolved fails the attempt without a call.
 */
export async function resolveParams(
  sources: ParamSources,
  s: LiveDelivery,
  event: BridgeEvent,
): Promise<{ ok: true; params: ResolvedParams } | { ok: false; error: string }> {
  const { tenant, platform } = s.scheduled;
  const env = async (key: string) => {
    const own = await sources.configCenter.get(tenant, key);
    if (own !== undefined || !platform || tenant === PLATFORM_TENANT) return own;
    return sources.configCenter.get(PLATFORM_TENANT, key);
  };
  let profile: Promise<TenantProfile | null | undefined> | undefined;
  const tenantProfile = async (key: string) => {
    profile ??= sources.tenantProfile(tenant);
    const value = (await profile)?.[key === '' ? 'supportMailGroup' : key];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const params: ResolvedParams = {};
  for (const p of s.scheduled.target?.params ?? []) {
    const v = await renderParam(event, p, env, tenantProfile);
    if (v.status === 'error') return { ok: false, error: v.error };
    if (v.status === 'unresolved')
      return { ok: false, error: `${p.resourceKey}: ${v.form} ${v.key} could not be resolved` };
    params[p.resourceKey] = v.value;
  }
  return { ok: true, params };
}
