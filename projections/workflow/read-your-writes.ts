import type { AllFilter, EventStore } from '../../infra/core/event-store.port.ts';
import { START } from '../../infra/core/position.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import { readCheckpoint } from '../core/checkpoints.ts';

/**
 * Read your writes for a projection's readers: waits until the projection has applied every event of its
 * filter that is in the log now (whoever appended it, in whatever process), so a query answers at least
 * the state of the last command that finished before it. The target is the last such event, found from
 * the projection's checkpoint (usually nothing or a few events are pending); the wait polls the
 * checkpoint. A projection that does not catch up in `timeoutMs` (no worker running) is a StoreUnavailable-
 * like failure for the caller to report.
 */
export class ProjectionBehind extends Error {
  constructor(readonly projection: string) {
    super(`the read model ${projection} is behind the log; retry shortly`);
    this.name = 'ProjectionBehind';
  }
}

export function createCatchUp(o: {
  eventStore: EventStore;
  readStore: ReadStore;
  projection: string;
  filter: AllFilter;
  timeoutMs?: number;
  pollMs?: number;
}) {
  const timeoutMs = o.timeoutMs ?? 5000;
  const pollMs = o.pollMs ?? 2;
  const position = async () => (await readCheckpoint(o.readStore, o.projection))?.position ?? START;

  return async function caughtUp(): Promise<void> {
    let at = await position();
    let target: string | undefined;
    for (let after = at; ; ) {
      const pending = await o.eventStore.readAll({ after, filter: o.filter, limit: 500 });
      if (pending.length === 0) break;
      target = pending[pending.length - 1]!.position;
      if (pending.length < 500) break;
      after = target;
    }
    if (target === undefined) return;
    const started = Date.now();
    while (at < target) {
      if (Date.now() - started > timeoutMs) throw new ProjectionBehind(o.projection);
      await new Promise((r) => setTimeout(r, pollMs));
      at = await position();
    }
  };
}
