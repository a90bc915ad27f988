import { createHash } from 'node:crypto';
import type { Dialect, ProcessModel } from '../../../domain/workflow/model/process-model.ts';
import { loadBpmn } from './bpmn.load.ts';
import { buildProcessModels } from './bpmn.model.ts';

export type ParsedBpmn = {
  resource: string;
  dialect: Dialect;
  models: ProcessModel[];
  warnings: string[];
  /** SHA-256 of the normalized XML: a redeploy with the same hash creates no new version */
  hash: string;
};

/**
 * The parse step of a deployment (async: bpmn-moddle): XML in, the engine's plain process models out,
 * or a 400 DomainError naming what is wrong and where.
 */
export async function parseBpmn(xml: string, resource: string): Promise<ParsedBpmn> {
  const loaded = await loadBpmn(xml, resource);
  const { models, warnings } = buildProcessModels(loaded.definitions, {
    xml,
    resource,
    dialect: loaded.dialect,
    warnings: loaded.warnings,
  });
  return { resource, dialect: loaded.dialect, models, warnings, hash: normalizedHash(xml) };
}

/**
 * Byte-identical files hash alike, and so do files that differ only in what XML does not mean: a byte
 * order mark, line endings, comments, the whitespace between tags and at line ends.
 */
export function normalizedHash(xml: string): string {
  const normalized = xml
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/>\s+</g, '><')
    .replace(/[ \t]+\n/g, '\n')
    .trim();
  return createHash('sha256').update(normalized).digest('hex');
}
