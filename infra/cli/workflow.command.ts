import { systemClock } from '../core/clock.port.ts';
import { loadConfig } from '../core/config.ts';
import { openCommandStores } from '../stores.ts';
import { type CliCommand, parse, UsageError } from './cli-kit.ts';

// The workflow engine's data import (infra/workflow/workflow-import.ts), run as a CLI command.

const importCommand: CliCommand = {
  name: 'import',
  summary: 'deploy the BPMN files of bizdata/wf_<engine>/wf_zip for a tenant',
  usage: ['workflow import <folder or .zip> [--tenant T]'],
  description: `Deploys every BPMN file of the business data layout bizdata/wf_<engine>/wf_zip/… in a folder or a
.zip (files there may themselves be .zip archives of BPMN files) for a tenant, one deployment per file; a
file whose processes are all unchanged is skipped. Exit code 1 when nothing was found or a file failed.

options:
  --tenant T        the tenant to deploy for (default: SEED_TENANT)`,
  examples: ['platform workflow import ./bizdata-export.zip --tenant acme', 'platform workflow import /srv/bizdata'],
  async run(args, io) {
    const { values, positionals } = parse(
      args,
      { tenant: { type: 'string' } },
      { positionals: 1, command: 'workflow import' },
    );
    if (positionals.length !== 1)
      throw new UsageError('usage: platform workflow import <folder or .zip> [--tenant T]', 'workflow import');
    const cfg = loadConfig(io.env);
    const stores = await openCommandStores(cfg);
    try {
      const { runWorkflowImport } = await import('../workflow/workflow-import.ts');
      return await runWorkflowImport({
        eventStore: stores.eventStore,
        clock: systemClock,
        tenant: values.tenant ?? cfg.identity.seed.tenant,
        source: positionals[0]!,
        write: io.out,
      });
    } finally {
      await stores.close();
    }
  },
};

/** `platform workflow import …` */
export const workflowCommand: CliCommand = {
  name: 'workflow',
  summary: 'the workflow engine: import BPMN definitions',
  usage: ['workflow import <folder or .zip> [--tenant T]'],
  description: "The workflow engine's operations. A subcommand is required.",
  examples: ['platform workflow import ./bizdata-export.zip --tenant acme'],
  subcommands: [importCommand],
  async run(args) {
    const { positionals } = parse(args, {}, { positionals: 1, command: 'workflow' });
    throw new UsageError(
      positionals[0] === undefined
        ? 'usage: platform workflow import <folder or .zip> [--tenant T]'
        : `unknown workflow subcommand "${positionals[0]}"`,
      'workflow',
    );
  },
};
