import { loadConfig } from '../core/config.ts';
import { platformDeciders } from '../services.ts';
import { openCommandStores } from '../stores.ts';
import { type CliCommand, EXIT, parse, UsageError } from './cli-kit.ts';
import { type ReplayQuery, replay } from './replay.ts';

/** `platform replay`: the timeline of an incident. */
export const replayCommand: CliCommand = {
  name: 'replay',
  summary: 'print a timeline of events: one stream, one correlation id, or a time window',
  usage: [
    'replay --stream S [--state]',
    'replay --correlation C [--state]',
    'replay --from T --to T [--category X] [--state]',
  ],
  description: `Prints the events of an incident, oldest first, one line each: time, stream@revision, type, actor,
key data (cut to one line). This is how an incident is investigated. Secrets never appear: sealed values
show as [sealed], secret configuration values as [secret], password and secret hashes as [redacted].

options:
  --stream S        the events of one stream (user-demo.<id>, published-acme.<eventId> …)
  --correlation C   every event whose correlation or causation id is C (an x-correlation-id)
  --from T --to T   every event that occurred between the two (both included; ISO 8601 date-times)
  --category X      with --from/--to: only streams of category X (the part of a stream name before "-")
  --state           after each event, the aggregate state folded by its category's decider`,
  examples: [
    'platform replay --correlation 2b0c6a1e-6f1d-4e57-9d0b-6f3f6c2b8f11',
    'platform replay --stream configEntry-acme.alert.token --state',
    'platform replay --from 2026-11-22T10:00:00Z --to 2026-11-22T11:00:00Z --category delivery | less',
  ],
  async run(args, io) {
    const { values } = parse(
      args,
      {
        stream: { type: 'string' },
        correlation: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        category: { type: 'string' },
        state: { type: 'boolean' },
      },
      { command: 'replay' },
    );
    let query: ReplayQuery;
    if (values.stream) query = { kind: 'stream', stream: values.stream };
    else if (values.correlation) query = { kind: 'correlation', correlationId: values.correlation };
    else if (values.from && values.to) {
      const from = instant(values.from, '--from');
      const to = instant(values.to, '--to');
      query = { kind: 'window', from, to, ...(values.category && { category: values.category }) };
    } else throw new UsageError('replay needs --stream S, --correlation C, or --from T --to T', 'replay');
    const stores = await openCommandStores(loadConfig(io.env));
    try {
      await replay(stores.eventStore, query, {
        state: values.state ?? false,
        deciders: platformDeciders(),
        write: io.out,
      });
    } finally {
      await stores.close();
    }
    return EXIT.ok;
  },
};

function instant(value: string, flag: string): string {
  const t = new Date(value);
  if (Number.isNaN(t.getTime()))
    throw new UsageError(`${flag} must be a date-time such as 2026-11-22T10:00:00Z, got "${value}"`, 'replay');
  return t.toISOString();
}
