import { createHash } from 'node:crypto';
import type { Rule } from '../../domain/bridge/model.ts';
import type { Filter, ReadStore } from '../../infra/core/read-store.port.ts';
import { readModel } from '../core/read-model.ts';
import { type OptOutDoc, RULES_PROJECTION, type RuleDoc } from './rules.projection.ts';

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

export function createRulesIndex(readStore: ReadStore): RulesIndexImpl {
  const rules = readModel<RuleDoc>(readStore, RULES_PROJECTION, 'rules');
  const optOuts = readModel<OptOutDoc>(readStore, RULES_PROJECTION, 'optOuts');
  return {
    async rulesForBus(bus, owner) {
      const filter: Filter = { bus, enabled: true, ...(owner !== undefined && { busOwner: owner }) };
      const docs = await rules.find(filter, { sort: { id: 1 } });
      const hash = createHash('sha256');
      for (const d of docs) hash.update(`${d.id}@${d.revision}\n`);
      return { version: hash.digest('base64url'), rules: docs.map((d) => JSON.parse(d.ruleJson) as Rule) };
    },
    async optedOut(tenant) {
      const docs = await optOuts.find({ tenant });
      return new Set(docs.map((d) => d.ruleId));
    },
  };
}
