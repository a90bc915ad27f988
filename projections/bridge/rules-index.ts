import { createHash } from 'node:crypto';
import type { Rule } from '../../domain/bridge/model.ts';
import type { Filter } from '../../infra/core/read-store.port.ts';
import { type CheckpointMemoStores, checkpointMemo } from '../core/checkpoint-memo.ts';
import { readModel } from '../core/read-model.ts';
import { type OptOutDoc, RULES_PROJECTION, type RuleDoc, rulesProjection } from './rules.projection.ts';

/**
 * The RulesIndex of commands/bridge/bridge.contracts.ts over the `bridge.rules` read model (structurally that
 * type: projections/ may not import commands/).
 *
 * rulesForBus(bus) answers every enabled rule on the bus: on a custom bus the owner's rules; on a platform
 * (or baseline) bus the platform rules *and* the rules tenants put there to handle platform events
 * themselves. Each Rule carries `tenant` and `platform`, so routing applies a tenant's rule to that
 * tenant's events only, and a platform rule to every tenant's events except those of tenants that opted
 * out (optedOut). `owner` narrows to the rules of the bus owned by that tenant, for deployments where a
 * custom bus name is unique per tenant only.
 *
 * `version` is a SHA-256 over the returned rules' ids and stream revisions: any create, update, enable,
 * disable or delete on the bus changes it (and only those), so a router may cache its compiled matcher
 * per bus and recompile when the version moves.
 */
export type RulesIndexImpl = {
  rulesForBus(bus: string, owner?: string): Promise<{ version: string; rules: Rule[] }>;
  optedOut(tenant: string): Promise<Set<string>>;
};

export function createRulesIndex(stores: CheckpointMemoStores): RulesIndexImpl {
  const { readStore } = stores;
  const rules = readModel<RuleDoc>(readStore, RULES_PROJECTION, 'rules');
  const optOuts = readModel<OptOutDoc>(readStore, RULES_PROJECTION, 'optOuts');
  // asked at every putEvent, as of every rule change in the log; kept while the projection's checkpoint stands
  const forBus = checkpointMemo(stores, rulesProjection, async (key) => {
    const [bus, owner] = JSON.parse(key) as [string, string | null];
    const filter: Filter = { bus, enabled: true, ...(owner !== null && { busOwner: owner }) };
    const docs = await rules.find(filter, { sort: { id: 1 } });
    const hash = createHash('sha256');
    for (const d of docs) hash.update(`${d.id}@${d.revision}\n`);
    return { version: hash.digest('base64url'), rules: docs.map((d) => JSON.parse(d.ruleJson) as Rule) };
  });
  const optOutsOf = checkpointMemo(
    stores,
    rulesProjection,
    async (tenant) => new Set((await optOuts.find({ tenant })).map((d) => d.ruleId)),
  );
  return {
    rulesForBus: (bus, owner) => forBus(JSON.stringify([bus, owner ?? null])),
    // a copy: the memo's answer is shared
    optedOut: async (tenant) => new Set(await optOutsOf(tenant)),
  };
}
