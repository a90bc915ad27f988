import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { ALERT_PUBLICATIONS, type AlertPublication } from '../../commands/hub/alert.publisher.ts';
import { createHousekeepingJob } from '../../commands/hub/housekeeping.job.ts';
import type { HubSettings } from '../../commands/hub/hub.contracts.ts';
import { createHousekeepingQueries } from '../../projections/hub/housekeeping.queries.ts';
import type { ServiceDeps } from '../platform-service.ts';
import { hubCollection } from './hub-recovery.ts';

/**
 * The housekeeping archive (docs/hub.md#housekeeping): JSON lines under `<DATA_DIR>/archive/hub-housekeeping/
 * <tenant>/<YYYY-MM-DD>.jsonl` (the run's UTC date), one line per removed notification, appended and
 * fsynced before the job removes anything (answered as `archive/hub-housekeeping/…`, relative to DATA_DIR): a crash after the archive and before the removal leaves an
 * archived notification still on the read side (the next run archives it again), never the reverse.
 */
export function createHousekeepingArchive(o: { dataDir: string; now: () => Date }) {
  return async (tenant: string, records: object[]): Promise<string> => {
    if (!/^[A-Za-z0-9_-]{1,63}$/.test(tenant)) throw new Error(`not a tenant code: ${tenant}`);
    const dir = path.join(o.dataDir, 'archive', 'hub-housekeeping', tenant);
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, `${o.now().toISOString().slice(0, 10)}.jsonl`);
    const handle = await open(file, 'a');
    try {
      await handle.writeFile(records.map((r) => `${JSON.stringify(r)}\n`).join(''));
      await handle.sync();
    } finally {
      await handle.close();
    }
    // answered relative to DATA_DIR: API answers do not reveal the server's file system layout
    return path.relative(o.dataDir, file);
  };
}

/** the housekeeping job over this process's stores (the hub service and `platform hub-housekeeping`) */
export function createHubHousekeeping(o: {
  deps: Pick<ServiceDeps, 'eventStore' | 'readStore' | 'clock' | 'config'>;
  settings: HubSettings;
  retentionDays: number;
}) {
  const { eventStore, readStore, clock, config } = o.deps;
  const queries = createHousekeepingQueries(readStore);
  const publications = hubCollection<AlertPublication>(readStore, ALERT_PUBLICATIONS);
  return createHousekeepingJob({
    eventStore,
    clock,
    settings: o.settings,
    defaultRetentionDays: o.retentionDays,
    candidates: queries.candidates,
    readSide: queries.readSide,
    async forgetAlerts(alertIds) {
      // declared as infra/hub/hub-recovery.ts declares it, once per job (a CLI run may be the first to touch it)
      await (await publications()).deleteMany({ id: { $in: alertIds } });
    },
    archive: createHousekeepingArchive({ dataDir: config.dataDir, now: () => clock.now() }),
  });
}
