import { ConfigError } from '../core/config.ts';
import { isStoreUnavailable } from '../core/store-errors.ts';
import { NoStoreError } from '../stores.ts';
import {
  type CliCommand,
  type CliIo,
  EXIT,
  EXIT_CODES_HELP,
  HelpRequested,
  helpText,
  processIo,
  UsageError,
} from './cli-kit.ts';
import { cliCommands } from './commands.ts';

/**
 * The `platform` CLI (bin/platform.js): a small dispatch table (commands.ts) over one file per command.
 * `platform --help` lists them; `platform <command> --help` (or `platform help <command>`) explains one with
 * examples. Exit codes are the same for every command (cli-kit.ts EXIT): 0 done, 1 failed, 2 bad usage or
 * configuration or no store in DATA_DIR, 3 a store unavailable. Output survives a closed pipe (`platform projections | head`).
 */
export function overview(commands: CliCommand[] = cliCommands()): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return [
    'usage: platform <command> [options]',
    '',
    'commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)} ${c.summary}`),
    '',
    'Every command explains itself, with examples: platform <command> --help',
    '',
    EXIT_CODES_HELP,
    '',
    'Configuration comes from environment variables (docs/configuration.md).',
  ].join('\n');
}

/** The command (or subcommand) `argv` names, with the arguments left for it and its path for messages. */
function resolve(
  argv: string[],
  commands: CliCommand[],
): { command: CliCommand; args: string[]; path: string } | undefined {
  const [name, ...rest] = argv;
  const top = commands.find((c) => c.name === name);
  if (top === undefined) return undefined;
  let command = top;
  let args = rest;
  let path = top.name;
  for (;;) {
    const sub = command.subcommands?.find((s) => s.name === args[0]);
    if (sub === undefined) return { command, args, path };
    command = sub;
    path = `${path} ${sub.name}`;
    args = args.slice(1);
  }
}

export async function runCli(argv: string[], io: CliIo, commands: CliCommand[] = cliCommands()): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    io.err(overview(commands));
    return EXIT.usage;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    if (rest.length === 0) {
      io.out(overview(commands));
      return EXIT.ok;
    }
    const found = resolve(rest, commands);
    if (found === undefined || found.args.length > 0) throw new UsageError(`no command "${rest.join(' ')}"`);
    io.out(helpText(found.command, found.path));
    return EXIT.ok;
  }
  const found = resolve(argv, commands);
  if (found === undefined) throw new UsageError(`unknown command "${first}"`);
  try {
    if (found.command.run === undefined) throw new UsageError(`${found.path} needs a subcommand`, found.path);
    return await found.command.run(found.args, io);
  } catch (err) {
    if (err instanceof HelpRequested) {
      io.out(helpText(found.command, found.path));
      return EXIT.ok;
    }
    if (err instanceof UsageError && err.command === undefined) throw new UsageError(err.message, found.path);
    throw err;
  }
}

export async function main(argv = process.argv.slice(2)): Promise<void> {
  const commands = cliCommands();
  const named = resolve(argv, commands)?.command;
  const io = processIo(() => named?.closedOutput ?? 'stop');
  try {
    process.exitCode = await runCli(argv, io, commands);
  } catch (err) {
    process.exitCode = report(err, io);
  }
}

/** The message of a failure and its exit code. */
function report(err: unknown, io: CliIo): number {
  if (err instanceof UsageError) {
    io.err(`platform: ${err.message}`);
    io.err(err.command === undefined ? 'See: platform --help' : `See: platform ${err.command} --help`);
    return EXIT.usage;
  }
  if (err instanceof ConfigError || err instanceof NoStoreError) {
    io.err(`platform: ${err.message}`);
    return EXIT.usage;
  }
  if (isStoreUnavailable(err)) {
    io.err(`platform: ${err instanceof Error ? err.message : String(err)} (a store is unavailable: retry later)`);
    return EXIT.unavailable;
  }
  io.err(`platform: ${err instanceof Error ? err.message : String(err)}`);
  return EXIT.failed;
}
