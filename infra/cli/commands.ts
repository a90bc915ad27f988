import type { CliCommand } from './cli-kit.ts';
import { hubEmailReceiverCommand } from './hub-email-receiver.command.ts';
import { hubHousekeepingCommand } from './hub-housekeeping.command.ts';
import { keysCommand } from './keys.command.ts';
import { projectionsCommand } from './projections.command.ts';
import { rebuildCommand } from './rebuild.command.ts';
import { replayCommand } from './replay.command.ts';
import { startCommand } from './start.command.ts';
import { workflowCommand } from './workflow.command.ts';

/**
 * The `platform` CLI's commands, in the order `platform --help` lists them: one file per command (a
 * CliCommand: name, summary, its own --help with examples, run), so a new command is a file and one entry
 * here (services add theirs: `platform workflow …`, `platform hub-email-receiver`).
 */
export const cliCommands = (): CliCommand[] => [
  startCommand,
  replayCommand,
  rebuildCommand,
  projectionsCommand,
  keysCommand,
  workflowCommand,
  hubEmailReceiverCommand,
  hubHousekeepingCommand,
];
