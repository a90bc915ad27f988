// Shared event for the conversion specs (not a spec itself).
import type { BridgeEvent } from '../../../../domain/bridge/model.ts';

export const event: BridgeEvent = {
  id: 'evt-1',
  source: 'batchv2:scheduler',
  type: 'batchv2:Alter:JobAlter',
  subject: 'batchv2:scheduler:nightly',
  time: '2026-03-01T02:00:00',
  dataContentType: 'application/json',
  eventBusName: 'platform',
  data: {
    job: 'nightly-settlement',
    quote: 'say "hi" \\ bye',
    attempts: 3,
    ratio: 0.25,
    failed: true,
    owner: null,
    detail: { step: 'load', codes: [1, 2] },
    tags: ['a', 'b'],
    items: [{ id: 1 }, { id: 2 }],
    empty: [],
  },
};

export const noEnv = async (_key: string): Promise<string | undefined> => undefined;
export const envOf =
  (values: Record<string, string>) =>
  async (key: string): Promise<string | undefined> =>
    values[key];
