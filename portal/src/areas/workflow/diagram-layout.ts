/**
 * A diagram for BPMN files that carry none: bpmn-js draws only what a file's BPMN DI says, and files
 * written by hand or by other engines' exports (examples/invoice.bpmn) often have no <BPMNDiagram>. The
 * layout is plain: each flow node in the column of its longest path from a start, one row per node of a
 * column, flows as straight or elbowed lines, boundary events on their host's lower edge. Only the first
 * process is laid out; subprocesses are drawn collapsed.
 */
const BPMN = 'http://www.omg.org/spec/BPMN/20100524/MODEL';
const BPMNDI = 'http://www.omg.org/spec/BPMN/20100524/DI';
const DC = 'http://www.omg.org/spec/DD/20100524/DC';
const DI = 'http://www.omg.org/spec/DD/20100524/DI';

const NOT_NODES = new Set([
  'sequenceFlow',
  'documentation',
  'extensionElements',
  'laneSet',
  'dataObject',
  'dataObjectReference',
  'dataStoreReference',
  'textAnnotation',
  'association',
  'ioSpecification',
  'property',
]);

type Box = { x: number; y: number; w: number; h: number };

const sizeOf = (kind: string): { w: number; h: number } =>
  kind.endsWith('Event') ? { w: 36, h: 36 } : kind.endsWith('Gateway') ? { w: 50, h: 50 } : { w: 100, h: 80 };

/** the XML as it is when it has a diagram (or cannot be read), else with a generated one */
export function withDiagram(xml: string): string {
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length > 0) return xml;
  if (doc.getElementsByTagNameNS(BPMNDI, 'BPMNDiagram').length > 0) return xml;
  const process = doc.getElementsByTagNameNS(BPMN, 'process')[0];
  if (process === undefined) return xml;

  const children = [...process.children].filter((c) => c.namespaceURI === BPMN && c.getAttribute('id'));
  const flows = children.filter((c) => c.localName === 'sequenceFlow');
  const nodes = children.filter((c) => !NOT_NODES.has(c.localName));
  const boundary = new Map<string, string>();
  for (const n of nodes) {
    const host = n.getAttribute('attachedToRef');
    if (n.localName === 'boundaryEvent' && host !== null) boundary.set(n.id, host);
  }
  const placed = nodes.filter((n) => !boundary.has(n.id));
  // a flow out of a boundary event leaves from its host's column
  const from = (id: string) => boundary.get(id) ?? id;

  const rank = new Map<string, number>(placed.map((n) => [n.id, 0]));
  for (let pass = 0; pass < placed.length; pass++) {
    let moved = false;
    for (const f of flows) {
      const s = rank.get(from(f.getAttribute('sourceRef') ?? ''));
      const t = f.getAttribute('targetRef') ?? '';
      if (s === undefined || !rank.has(t) || rank.get(t)! >= s + 1) continue;
      rank.set(t, s + 1);
      moved = true;
    }
    if (!moved) break;
  }

  const boxes = new Map<string, Box>();
  const rows = new Map<number, number>();
  for (const n of placed) {
    const r = rank.get(n.id) ?? 0;
    const row = rows.get(r) ?? 0;
    rows.set(r, row + 1);
    const { w, h } = sizeOf(n.localName);
    boxes.set(n.id, { x: 60 + r * 170 + (100 - w) / 2, y: 80 + row * 130 + (80 - h) / 2, w, h });
  }
  const perHost = new Map<string, number>();
  for (const [id, host] of boundary) {
    const b = boxes.get(host);
    if (b === undefined) continue;
    const i = perHost.get(host) ?? 0;
    perHost.set(host, i + 1);
    boxes.set(id, { x: b.x + b.w - 40 - i * 40, y: b.y + b.h - 18, w: 36, h: 36 });
  }

  const diagram = doc.createElementNS(BPMNDI, 'bpmndi:BPMNDiagram');
  diagram.setAttribute('id', 'portal_generated_diagram');
  const plane = doc.createElementNS(BPMNDI, 'bpmndi:BPMNPlane');
  plane.setAttribute('id', 'portal_generated_plane');
  plane.setAttribute('bpmnElement', process.id);
  diagram.appendChild(plane);

  for (const n of nodes) {
    const b = boxes.get(n.id);
    if (b === undefined) continue;
    const shape = doc.createElementNS(BPMNDI, 'bpmndi:BPMNShape');
    shape.setAttribute('id', `${n.id}_di`);
    shape.setAttribute('bpmnElement', n.id);
    if (n.localName === 'subProcess') shape.setAttribute('isExpanded', 'false');
    const bounds = doc.createElementNS(DC, 'dc:Bounds');
    for (const [k, v] of [
      ['x', b.x],
      ['y', b.y],
      ['width', b.w],
      ['height', b.h],
    ] as const)
      bounds.setAttribute(k, String(v));
    shape.appendChild(bounds);
    plane.appendChild(shape);
  }
  for (const f of flows) {
    const s = boxes.get(f.getAttribute('sourceRef') ?? '');
    const t = boxes.get(f.getAttribute('targetRef') ?? '');
    if (s === undefined || t === undefined) continue;
    const edge = doc.createElementNS(BPMNDI, 'bpmndi:BPMNEdge');
    edge.setAttribute('id', `${f.id}_di`);
    edge.setAttribute('bpmnElement', f.id);
    const sx = s.x + s.w;
    const sy = s.y + s.h / 2;
    const tx = t.x;
    const ty = t.y + t.h / 2;
    const points =
      sy === ty
        ? [
            [sx, sy],
            [tx, ty],
          ]
        : [
            [sx, sy],
            [(sx + tx) / 2, sy],
            [(sx + tx) / 2, ty],
            [tx, ty],
          ];
    for (const [x, y] of points) {
      const wp = doc.createElementNS(DI, 'di:waypoint');
      wp.setAttribute('x', String(x));
      wp.setAttribute('y', String(y));
      edge.appendChild(wp);
    }
    plane.appendChild(edge);
  }
  doc.documentElement.appendChild(diagram);
  return new XMLSerializer().serializeToString(doc);
}
