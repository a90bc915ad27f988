import { type DefinitionRef, refKey } from '../model/process-model.ts';

/**
 * Thrown by the interpreter when it needs a definition the command did not bring (a call activity whose
 * target was not preloaded): the command layer loads it and decides again. Not a domain error: it never
 * reaches a caller.
 */
export class DefinitionNeeded extends Error {
  constructor(readonly ref: DefinitionRef) {
    super(`definition needed: ${refKey(ref)}`);
    this.name = 'DefinitionNeeded';
  }
}
