import type { Decider } from '../core/decider.ts';
import { streamName } from '../core/stream-name.ts';
import { hubError, type Violation } from './hub.errors.ts';
import { ANY_CLASS, checkPreferenceKey, type PreferenceDecision, type PreferenceKey } from './preference.decider.ts';

/**
 * Customer interactions (spec "Events": "interactions (customer replies, opt-outs) have their own handling
 * lifecycle and never replace delivery evidence"): one aggregate per interaction,
 * `hubInteraction-<tenant>.<InteractionId>`, RECEIVED → HANDLED or DISMISSED (by an operator). They never
 * touch a message's state or evidence: a reply to a message is linked to it (MessageId), nothing more.
 *
 * An explicit OPT_OUT (or OPT_IN) also sets the channel preference (preferenceChangeOf): DENY (ALLOW) for
 * the recipient, channel and class (`*` when none is named). A provider's bounce or failure code is a
 * receipt, never an interaction, so it cannot change consent.
 */
export const INTERACTION_CATEGORY = 'hubInteraction';
export const interactionStream = (tenant: string, id: string) => streamName(INTERACTION_CATEGORY, tenant, id);

export type InteractionType = 'REPLY' | 'OPT_OUT' | 'OPT_IN';
export const INTERACTION_TYPES: readonly InteractionType[] = ['REPLY', 'OPT_OUT', 'OPT_IN'];
export type InteractionStatus = 'RECEIVED' | 'HANDLED' | 'DISMISSED';

export type InteractionInput = {
  InteractionId: string;
  Type: InteractionType;
  RecipientId: string;
  Channel: string;
  /** OPT_OUT / OPT_IN: the class it is about; absent: every class of the channel */
  NotificationClass?: string;
  /** the message it answers, when known */
  MessageId?: string;
  Text?: string;
  ReceivedAt: string;
};

export type Interaction = InteractionInput & {
  Status: InteractionStatus;
  RecordedAt: string;
  HandledAt?: string;
  HandledBy?: string;
  Note?: string;
};

export type InteractionEvent =
  | { type: 'InteractionRecorded'; data: InteractionInput & { At: string } }
  | {
      type: 'InteractionHandled';
      data: { InteractionId: string; Resolution: 'HANDLED' | 'DISMISSED'; By: string; Note?: string; At: string };
    };

export type InteractionCommand =
  | { type: 'RecordInteraction'; interaction: InteractionInput; now: string }
  | {
      type: 'HandleInteraction';
      InteractionId: string;
      Resolution: 'HANDLED' | 'DISMISSED';
      By: string;
      Note?: string;
      now: string;
    };

export type InteractionState = { interaction: Interaction | null };

const ID = /^[A-Za-z0-9._:@-]{1,100}$/;

export function checkInteraction(i: InteractionInput): Violation[] {
  const out: Violation[] = [];
  if (typeof i.InteractionId !== 'string' || !ID.test(i.InteractionId))
    out.push({ field: 'InteractionId', message: 'must be 1-100 characters of A-Z a-z 0-9 . _ : @ -' });
  if (!INTERACTION_TYPES.includes(i.Type))
    out.push({ field: 'Type', message: `must be one of ${INTERACTION_TYPES.join(', ')}` });
  out.push(
    ...checkPreferenceKey({
      RecipientId: i.RecipientId,
      Channel: i.Channel,
      NotificationClass: i.NotificationClass ?? ANY_CLASS,
    }),
  );
  if (i.NotificationClass !== undefined && i.Type === 'REPLY')
    out.push({ field: 'NotificationClass', message: 'is only for OPT_OUT and OPT_IN' });
  if (i.Text !== undefined && (typeof i.Text !== 'string' || i.Text.length > 4000))
    out.push({ field: 'Text', message: 'must be at most 4000 characters' });
  return out;
}

const same = (a: InteractionInput, b: InteractionInput) =>
  a.Type === b.Type &&
  a.RecipientId === b.RecipientId &&
  a.Channel === b.Channel &&
  a.NotificationClass === b.NotificationClass &&
  a.MessageId === b.MessageId &&
  a.Text === b.Text;

export const interactionDecider: Decider<InteractionCommand, InteractionEvent, InteractionState> = {
  initialState: () => ({ interaction: null }),
  evolve(state, e) {
    switch (e.type) {
      case 'InteractionRecorded': {
        const { At, ...input } = e.data;
        return { interaction: { ...input, Status: 'RECEIVED', RecordedAt: At } };
      }
      case 'InteractionHandled':
        if (state.interaction === null) return state;
        return {
          interaction: {
            ...state.interaction,
            Status: e.data.Resolution,
            HandledAt: e.data.At,
            HandledBy: e.data.By,
            ...(e.data.Note !== undefined && { Note: e.data.Note }),
          },
        };
    }
  },
  decide(c, state) {
    const i = state.interaction;
    switch (c.type) {
      case 'RecordInteraction': {
        const bad = checkInteraction(c.interaction);
        if (bad.length > 0)
          throw hubError('INTERACTION.INVALID', bad.map((v) => `${v.field} ${v.message}`).join('; '), bad);
        if (i !== null) {
          // the same interaction reported again (a resent webhook) is the one already recorded
          if (same(i, c.interaction)) return [];
          throw hubError(
            'INTERACTION.EXISTS',
            `interaction ${c.interaction.InteractionId} was recorded with other content`,
            { InteractionId: c.interaction.InteractionId },
          );
        }
        return [{ type: 'InteractionRecorded', data: { ...c.interaction, At: c.now } }];
      }
      case 'HandleInteraction': {
        if (i === null)
          throw hubError('INTERACTION.NOT_FOUND', 'no such interaction', { InteractionId: c.InteractionId });
        if (i.Status === c.Resolution) return [];
        if (i.Status !== 'RECEIVED')
          throw hubError('INTERACTION.STATE_CONFLICT', `interaction ${i.InteractionId} is ${i.Status} already`, {
            InteractionId: i.InteractionId,
            Status: i.Status,
          });
        if (c.Note !== undefined && c.Note.length > 2000)
          throw hubError('INTERACTION.INVALID', 'Note must be at most 2000 characters', [
            { field: 'Note', message: 'must be at most 2000 characters' },
          ]);
        return [
          {
            type: 'InteractionHandled',
            data: {
              InteractionId: i.InteractionId,
              Resolution: c.Resolution,
              By: c.By,
              ...(c.Note !== undefined && { Note: c.Note }),
              At: c.now,
            },
          },
        ];
      }
    }
  },
};

/** the preference an interaction sets (OPT_OUT: DENY, OPT_IN: ALLOW); a reply sets none */
export function preferenceChangeOf(i: InteractionInput): { key: PreferenceKey; Decision: PreferenceDecision } | null {
  switch (i.Type) {
    case 'REPLY':
      return null;
    case 'OPT_OUT':
    case 'OPT_IN':
      return {
        key: { RecipientId: i.RecipientId, Channel: i.Channel, NotificationClass: i.NotificationClass ?? ANY_CLASS },
        Decision: i.Type === 'OPT_OUT' ? 'DENY' : 'ALLOW',
      };
  }
}
