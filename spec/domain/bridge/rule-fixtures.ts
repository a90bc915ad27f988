// Shared rule bodies for the bridge rule specs (not a spec itself).
import type { Target } from '../../../domain/bridge/model.ts';

/** the spec's example: the batch-job alert mail through a platform mail target */
export const mailTarget = (id = 1): Target => ({
  id,
  typeId: 1,
  pushRetryStrategy: 'BACKOFF_RETRY',
  errorTolerance: 'ALL',
  deadLetterRecord: true,
  params: [
    { resourceKey: 'SUBJECT', form: 'CONSTANT', value: 'Batch job alert' },
    { resourceKey: 'ACCOUNT', form: 'ENV_PARAM', value: 'mail.account' },
    { resourceKey: 'TO', form: 'TENANT_PROFILE', value: 'supportMailGroup' },
    { resourceKey: 'CONTENT', form: 'TEMPLATE', value: '{"job":"$.data.job"}', template: 'Job ${job} failed' },
  ],
  conversion: { kind: 'complete' },
});

export const httpTarget = (id = 2): Target => ({
  id,
  typeId: 3,
  pushRetryStrategy: 'EXPONENTIAL_DECAY_RETRY',
  errorTolerance: 'NONE',
  deadLetterRecord: false,
  params: [
    { resourceKey: 'SERVICE_NAME', form: 'CONSTANT', value: 'claims' },
    { resourceKey: 'BODY', form: 'ORIGINAL', value: '' },
  ],
  conversion: { kind: 'partial', path: '$.data' },
});

export const alertPattern = { source: ['batchv2:scheduler'], type: ['batchv2:Alter:JobAlter'] };
