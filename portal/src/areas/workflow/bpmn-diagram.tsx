import { useEffect, useRef, useState } from 'react';
import { withDiagram } from './diagram-layout.ts';
import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import './workflow.css';

type Canvas = {
  zoom(level: 'fit-viewport', center?: 'auto'): void;
  resized(): void;
  addMarker(id: string, marker: string): void;
};
type Registry = { get(id: string): unknown };
type Overlays = {
  add(id: string, type: string, o: { position: { top?: number; right?: number }; html: HTMLElement }): void;
};

/**
 * A BPMN diagram drawn by bpmn-js's NavigatedViewer (pan and zoom), loaded on first use: the import below
 * makes it a chunk of its own, fetched only by the pages that draw. Active elements get a marker and a
 * token overlay, completed ones a marker; the same facts are listed in text beside the diagram.
 */
export function BpmnDiagram({
  xml,
  label,
  active = [],
  completed = [],
  failed = [],
}: {
  xml: string;
  label: string;
  active?: readonly string[];
  completed?: readonly string[];
  /** elements an API error names (a refused deployment) */
  failed?: readonly string[];
}) {
  const host = useRef<HTMLDivElement>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const activeKey = active.join(' ');
  const completedKey = completed.join(' ');
  const failedKey = failed.join(' ');

  useEffect(() => {
    let viewer: { destroy(): void } | undefined;
    let resize: ResizeObserver | undefined;
    let cancelled = false;
    (async () => {
      const { default: NavigatedViewer } = await import('bpmn-js/lib/NavigatedViewer');
      if (cancelled || host.current === null) return;
      const v = new NavigatedViewer({ container: host.current });
      viewer = v;
      await v.importXML(withDiagram(xml));
      if (cancelled) return;
      const canvas = v.get<Canvas>('canvas');
      const registry = v.get<Registry>('elementRegistry');
      const overlays = v.get<Overlays>('overlays');
      canvas.zoom('fit-viewport', 'auto');
      // a narrower window (a phone turned, a sidebar folded) fits the diagram again
      resize = new ResizeObserver(() => {
        canvas.resized();
        canvas.zoom('fit-viewport', 'auto');
      });
      resize.observe(host.current);
      for (const id of completedKey.split(' ')) if (id && registry.get(id)) canvas.addMarker(id, 'wf-completed');
      for (const id of failedKey.split(' ')) if (id && registry.get(id)) canvas.addMarker(id, 'wf-failed');
      for (const id of activeKey.split(' ')) {
        if (!id || !registry.get(id)) continue;
        canvas.addMarker(id, 'wf-active');
        const token = document.createElement('span');
        token.className = 'wf-token';
        token.textContent = '●';
        overlays.add(id, 'wf-token', { position: { top: -8, right: 8 }, html: token });
      }
      setFailure(null);
    })().catch((e: unknown) => {
      if (!cancelled) setFailure(e instanceof Error ? e.message : String(e));
    });
    return () => {
      cancelled = true;
      resize?.disconnect();
      viewer?.destroy();
    };
  }, [xml, activeKey, completedKey, failedKey]);

  return (
    <figure className="wf-diagram">
      <div ref={host} className="wf-canvas" data-testid="bpmn-canvas" />
      <figcaption className="wf-legend">
        {failure !== null ? (
          <span role="alert">The diagram cannot be drawn: {failure}</span>
        ) : (
          <>
            {label}. Drag to pan, scroll to zoom.
            {active.length > 0 && (
              <>
                {' '}
                <span className="wf-key wf-key-active">Active: {active.join(', ')}</span>
              </>
            )}
            {failed.length > 0 && (
              <>
                {' '}
                <span className="wf-key wf-key-failed">Refused: {failed.join(', ')}</span>
              </>
            )}
            {completed.length > 0 && (
              <>
                {' '}
                <span className="wf-key wf-key-completed">Completed: {completed.join(', ')}</span>
              </>
            )}
          </>
        )}
      </figcaption>
    </figure>
  );
}
