import { PLATFORM_TENANT } from '../core/access-context.ts';
import { assertNever, type Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';
import { streamName } from '../core/stream-name.ts';
import { auditError } from './audit.errors.ts';

/**
 * The warning levels of audit records (spec: "INFO and WARN exist; further levels are created on request to
 * the platform operator"). Platform-wide: one aggregate, stream `auditLevels-platform.levels`, written by
 * the platform tenant's administrators only (the router checks who asks). INFO and WARN are built in: they
 * exist without an event and cannot be created again. Levels are never deleted (records keep naming them).
 */
export const LEVELS_CATEGORY = 'auditLevels';
export const levelsStream = (): string => streamName(LEVELS_CATEGORY, PLATFORM_TENANT, 'levels');

export const BUILT_IN_LEVELS = ['INFO', 'WARN'] as const;
export const DEFAULT_LEVEL = 'INFO';

export type WarningLevel = { name: string; description: string; built_in: boolean; created_at?: string };
export type LevelsState = { levels: Readonly<Record<string, WarningLevel>> };

export type LevelsCommand = { type: 'CreateLevel'; name: string; description?: string; now: string };
export type WarningLevelCreated = DomainEvent<'WarningLevelCreated', { name: string; description: string; at: string }>;
export type LevelsEvent = WarningLevelCreated;
export const LEVELS_EVENT_TYPES: ReadonlyArray<LevelsEvent['type']> = ['WarningLevelCreated'];

const builtIn = (): Record<string, WarningLevel> => ({
  INFO: { name: 'INFO', description: 'information', built_in: true },
  WARN: { name: 'WARN', description: 'warning', built_in: true },
});

export const levelsDecider: Decider<LevelsCommand, LevelsEvent, LevelsState> = {
  initialState: () => ({ levels: builtIn() }),

  evolve(state, event) {
    switch (event.type) {
      case 'WarningLevelCreated': {
        const { name, description, at } = event.data;
        return { levels: { ...state.levels, [name]: { name, description, built_in: false, created_at: at } } };
      }
      default:
        return assertNever(event.type);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'CreateLevel': {
        if (state.levels[command.name] !== undefined)
          throw auditError('WARNING_LEVEL.EXISTS', `warning level ${command.name} exists`, { name: command.name });
        return [
          {
            type: 'WarningLevelCreated',
            data: { name: command.name, description: command.description ?? '', at: command.now },
          },
        ];
      }
      default:
        return assertNever(command.type);
    }
  },
};
