// bpmn-moddle ships element typings (bpmn-moddle/types) but none for its entry point: the little we call.
declare module 'bpmn-moddle' {
  export type ModdleElement = { $type: string; id?: string; $attrs?: Record<string, string>; [key: string]: unknown };
  export type ModdleWarning = { message: string; error?: Error };
  export class BpmnModdle {
    constructor(packages?: Record<string, unknown>);
    fromXML(
      xml: string,
    ): Promise<{ rootElement: ModdleElement; warnings: ModdleWarning[]; elementsById: Record<string, ModdleElement> }>;
  }
}
