import { type ParseArgsConfig, parseArgs } from 'node:util';

/**
 * What every `platform` command is built from: a name, a one-line summary for the
 * overview, its own `--help` (usage, description, options, examples), and `run`. Arguments are parsed with
 * node's util.parseArgs (`parse`), strict: an unknown option is a usage error naming the command's help.
 *
 * Exit codes, the same for every command (scripts rely on them):
 */
export const EXIT = {
  /** done */
  ok: 0,
  /** the command ran and failed (an error, or what it checked did not hold: events still parked …) */
  failed: 1,
  /** bad usage or bad configuration, or no store in DATA_DIR (a one-shot command): nothing was done */
  usage: 2,
  /** a store is unavailable: nothing (or not everything) was done; retry later */
  unavailable: 3,
} as const;

export const EXIT_CODES_HELP = `exit codes:
  0  done
  1  the command failed (its message says why)
  2  bad usage or bad configuration, or no store in DATA_DIR (nothing was done)
  3  a store is unavailable (retry later)`;

/** Where a command writes. `out` is stdout, safe to pipe (`platform projections | head`). */
export type CliIo = {
  out(line: string): void;
  err(line: string): void;
  env: NodeJS.ProcessEnv;
};

export type CliCommand = {
  /** the word after `platform` (a subcommand: the word after its parent's) */
  name: string;
  summary: string;
  /** synopsis lines, without `platform ` */
  usage: string[];
  /** what it does, the options, notes */
  description: string;
  /** full command lines, each with a `#` comment when useful */
  examples: string[];
  /** subcommands (`projections parked`, `keys rotate-config`); `run` handles the command without one */
  subcommands?: CliCommand[];
  /**
   * what a closed stdout means (a reader such as `head` that had enough): `stop` (default) ends the process
   * quietly with the exit code so far; `ignore` keeps running without output (a server)
   */
  closedOutput?: 'stop' | 'ignore';
  run?(args: string[], io: CliIo): Promise<number>;
};

/** A usage error: exit 2, the message and a pointer to the command's help. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Thrown by `parse` on `--help` / `-h`: the dispatcher prints the command's help and exits 0. */
export class HelpRequested extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * util.parseArgs, strict, with `--help`/`-h` added to every command. Positionals only when `positionals`
 * says how many (a number or 'any').
 */
export function parse<O extends Options>(
  args: string[],
  options: O,
  o: { positionals?: number | 'any'; command: string },
) {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: o.positionals !== undefined,
    });
  } catch (err) {
    throw new UsageError(
      err instanceof Error ? err.message.replace(/\. To specify a positional argument.*$/s, '') : String(err),
      o.command,
    );
  }
  if ((parsed.values as { help?: boolean }).help === true) throw new HelpRequested();
  if (typeof o.positionals === 'number' && parsed.positionals.length > o.positionals) {
    throw new UsageError(`unexpected argument "${parsed.positionals[o.positionals]}"`, o.command);
  }
  return parsed;
}

/** A command's `--help` text. */
export function helpText(command: CliCommand, path: string): string {
  const lines = [
    `usage: ${command.usage.map((u) => `platform ${u}`).join('\n       ')}`,
    '',
    command.description.trimEnd(),
  ];
  if (command.subcommands?.length) {
    lines.push('', 'subcommands:');
    for (const sub of command.subcommands) lines.push(`  ${`${path} ${sub.name}`.padEnd(30)} ${sub.summary}`);
    lines.push('', `Each has its own help: platform ${path} <subcommand> --help`);
  }
  if (command.examples.length > 0) lines.push('', 'examples:', ...command.examples.map((e) => `  ${e}`));
  lines.push('', EXIT_CODES_HELP, '', 'Configuration comes from environment variables (docs/configuration.md).');
  return lines.join('\n');
}

/**
 * stdout and stderr of this process. A closed stdout (EPIPE: the reader went away) is not an error: the
 * command stops quietly (or, for a server, goes on without output), instead of dying with a stack trace.
 */
export function processIo(onClosedOutput: () => 'stop' | 'ignore'): CliIo {
  let closed = false;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    closed = true;
    if (onClosedOutput() === 'stop') process.exit(process.exitCode ?? EXIT.ok);
  });
  process.stderr.on('error', () => undefined); // nowhere left to say anything
  return {
    out: (line) => {
      if (!closed) process.stdout.write(`${line}\n`);
    },
    err: (line) => {
      process.stderr.write(`${line}\n`);
    },
    env: process.env,
  };
}
