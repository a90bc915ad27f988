import { BpmnModdle, type ModdleElement } from 'bpmn-moddle';
import camunda from 'camunda-bpmn-moddle/resources/camunda.json' with { type: 'json' };
import zeebe from 'zeebe-bpmn-moddle/resources/zeebe.json' with { type: 'json' };
import type { Dialect } from '../../../domain/workflow/model/process-model.ts';
import { workflowError } from '../../../domain/workflow/workflow.errors.ts';

export const CAMUNDA_NS = 'http://camunda.org/schema/1.0/bpmn';
export const ZEEBE_NS = 'http://camunda.org/schema/zeebe/1.0';

/**
 * Parses BPMN 2.0 XML with bpmn-moddle and the extension its namespaces call for: Zeebe (Camunda 8) when
 * the file declares the Zeebe namespace, else Camunda 7 when it declares Camunda's, else plain BPMN
 * (Activiti and Flowable attributes are then read from the unknown attributes). The two extensions cannot
 * be registered on one moddle: one moddle per dialect, built once. Not well-formed XML is a 400 naming
 * the line and column (1-based).
 */
const moddles: Partial<Record<Dialect, BpmnModdle>> = {};
const moddleFor = (dialect: Dialect): BpmnModdle =>
  (moddles[dialect] ??= new BpmnModdle(dialect === 'zeebe' ? { zeebe } : dialect === 'camunda7' ? { camunda } : {}));

export function dialectOf(xml: string): Dialect {
  if (xml.includes(ZEEBE_NS)) return 'zeebe';
  if (xml.includes(CAMUNDA_NS)) return 'camunda7';
  return 'plain';
}

export type LoadedBpmn = { definitions: ModdleElement; dialect: Dialect; warnings: string[] };

export async function loadBpmn(xml: string, resource: string): Promise<LoadedBpmn> {
  const dialect = dialectOf(xml);
  let result: Awaited<ReturnType<BpmnModdle['fromXML']>>;
  try {
    result = await moddleFor(dialect).fromXML(xml);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const where = positionOf(message);
    const first = message.split('\n')[0]!.trim();
    throw workflowError(
      'DEPLOYMENT.INVALID_XML',
      `${resource}: invalid BPMN XML${where ? ` at line ${where.line}, column ${where.column}` : ''}: ${first}`,
      {
        resource,
        ...(where ?? {}),
        cause: message.replace(/\s+/g, ' ').trim(),
      },
    );
  }
  if (result.rootElement?.$type !== 'bpmn:Definitions') {
    throw workflowError('DEPLOYMENT.INVALID_XML', `${resource}: the root element is not a BPMN 2.0 <definitions>`, {
      resource,
    });
  }
  return {
    definitions: result.rootElement,
    dialect,
    warnings: result.warnings.map((w) => `${resource}: ${w.message.replace(/\s+/g, ' ').trim()}`),
  };
}

/** moddle's (saxen's) 0-based `line: n column: m` as 1-based */
function positionOf(message: string): { line: number; column: number } | undefined {
  const line = /line:\s*(\d+)/.exec(message);
  const column = /column:\s*(\d+)/.exec(message);
  if (line === null) return undefined;
  return { line: Number(line[1]) + 1, column: column === null ? 1 : Number(column[1]) + 1 };
}
