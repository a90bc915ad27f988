import { createConfigCenter } from '../../commands/bridge/config-center.commands.ts';
import type { HousekeepingReport } from '../../commands/hub/housekeeping.job.ts';
import { SETTING } from '../../commands/hub/hub.contracts.ts';
import { createHousekeepingQueries } from '../../projections/hub/housekeeping.queries.ts';
import { systemClock } from '../core/clock.port.ts';
import { loadConfig } from '../core/config.ts';
import { createHubHousekeeping } from '../hub/housekeeping.archive.ts';
import { loadHubConfig } from '../hub/hub.config.ts';
import { createHubSettings } from '../hub/hub-settings.ts';
import { lazyConfigBox } from '../identity/config-box.ts';
import { openCommandStores } from '../stores.ts';
import { type CliCommand, EXIT, parse, UsageError } from './cli-kit.ts';

const int = (name: string, raw: string | undefined): number | undefined => {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new UsageError(`--${name} must be a whole number, got "${raw}"`, 'hub-housekeeping');
  return n;
};

function print(out: (line: string) => void, r: HousekeepingReport) {
  const source = r.RetentionSource === 'PARAMETER' ? '--days' : SETTING.housekeepingRetentionDays;
  if (r.Disabled) {
    out(`${r.Tenant}: housekeeping disabled (retention -1, ${source})`);
    return;
  }
  const verb = r.DryRun ? 'would remove' : 'removed';
  const kept =
    Object.entries(r.Kept)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ') || 'none';
  out(
    `${r.Tenant}: retention ${r.RetentionDays} days (${source}), cutoff ${r.Cutoff}, scanned ${r.Scanned}, ${verb} ${r.Removed.length}, kept: ${kept}${r.LimitReached ? ' (limit reached)' : ''}`,
  );
  for (const x of r.Removed) out(`  ${verb} ${x.NotificationId}  RequestId ${x.RequestId}  completed ${x.CompletedAt}`);
  for (const a of r.ArchivedTo ?? []) out(`  archived to DATA_DIR/${a}`);
}

/** `platform hub-housekeeping` (docs/hub.md#housekeeping) */
export const hubHousekeepingCommand: CliCommand = {
  name: 'hub-housekeeping',
  summary: "the notification hub's housekeeping job: completed notifications off the read side (dry run by default)",
  usage: [
    'hub-housekeeping (--tenant <code> | --all-tenants) [--days <n>] [--execute] [--archive] [--page-size <n>] [--limit <n>] [--json]',
  ],
  description: `Removes the eligible completed notifications of a tenant from the hub's read models (the event log
keeps them): completed, last changed before the retention cutoff, no active attempt, pending retry or
uncertain outcome. Without --execute it is a dry run: it lists what it would remove and what it keeps.
  --days <n>       retention in days (-1 disables); default: the tenant's comm.hub.housekeeping.retention-days
                   (configuration center, tenant then platform), else HUB_HOUSEKEEPING_RETENTION_DAYS (90)
  --execute        remove (append NotificationHousekept; the projections delete the rows when they apply it:
                   at once in a running platform, else at its next start)
  --archive        archive each removed notification first: JSON lines under DATA_DIR/archive/hub-housekeeping/
  --page-size <n>  candidates read per page (100); --limit <n> notifications removed per run (1000)
  --json           print the report(s) as JSON`,
  examples: [
    'platform hub-housekeeping --tenant acme                      # dry run with the configured retention',
    'platform hub-housekeeping --tenant acme --days 30 --execute --archive',
    'platform hub-housekeeping --all-tenants --execute --json',
  ],
  async run(args, io) {
    const { values } = parse(
      args,
      {
        tenant: { type: 'string' },
        'all-tenants': { type: 'boolean' },
        days: { type: 'string' },
        execute: { type: 'boolean' },
        archive: { type: 'boolean' },
        'page-size': { type: 'string' },
        limit: { type: 'string' },
        json: { type: 'boolean' },
      },
      { command: 'hub-housekeeping' },
    );
    if ((values.tenant === undefined) === (values['all-tenants'] !== true))
      throw new UsageError('give --tenant <code> or --all-tenants', 'hub-housekeeping');
    const days = int('days', values.days);
    const pageSize = int('page-size', values['page-size']);
    const limit = int('limit', values.limit);
    const config = loadConfig(io.env);
    const hub = loadHubConfig(io.env, config);
    const stores = await openCommandStores(config);
    try {
      const settings = createHubSettings({
        configCenter: createConfigCenter({ eventStore: stores.eventStore, box: lazyConfigBox(config) }),
        clock: systemClock,
        defaults: { [SETTING.housekeepingRetentionDays]: String(hub.housekeepingRetentionDays) },
      });
      const job = createHubHousekeeping({
        deps: { ...stores, clock: systemClock, config },
        settings,
        retentionDays: hub.housekeepingRetentionDays,
      });
      const tenants =
        values.tenant !== undefined ? [values.tenant] : await createHousekeepingQueries(stores.readStore).tenants();
      const reports: HousekeepingReport[] = [];
      for (const tenant of tenants) {
        const r = await job.run(tenant, {
          ...(days !== undefined && { days }),
          dryRun: values.execute !== true,
          archiveBeforeDelete: values.archive === true,
          ...(pageSize !== undefined && { pageSize }),
          ...(limit !== undefined && { limit }),
        });
        reports.push(r);
        if (values.json !== true) print(io.out, r);
      }
      if (values.json === true) io.out(JSON.stringify(reports, null, 2));
      if (tenants.length === 0 && values.json !== true) io.out('no notifications on the read side');
      return EXIT.ok;
    } finally {
      await stores.close();
    }
  },
};
