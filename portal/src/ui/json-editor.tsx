import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { bracketMatching, indentOnInput } from '@codemirror/language';
import { type Diagnostic, setDiagnostics } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import '../styles/json-editor.css';

/**
 * A JSON editor (CodeMirror 6) for area pages that edit JSON: patterns, sample events, constants. Only
 * area chunks import it (CodeMirror stays out of the shell). Styles CodeMirror inserts carry the page's
 * CSP nonce (`<meta name="csp-nonce">`). Tab is not captured (keyboard users move on with it); the
 * problems given as `marks` are underlined in place, their messages are the caller's to show.
 */
export type EditorMark = { from: number; to: number; message: string };

const cspNonce = (): string => document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? '';

const theme = EditorView.theme({
  '&': { border: '1px solid var(--border)', borderRadius: 'var(--radius)', background: 'var(--surface)' },
  '&.cm-focused': { outline: '3px solid var(--focus)', outlineOffset: '1px' },
  '.cm-content': { fontFamily: 'var(--mono)', caretColor: 'var(--text)', color: 'var(--text)' },
  '.cm-gutters': { background: 'var(--bg)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-scroller': { minHeight: '6rem', maxHeight: '24rem', overflow: 'auto' },
  // the base theme draws a black cursor and a grey selection: both follow the portal's colours instead
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--text)' },
  '.cm-selectionBackground, &.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground': {
    background: 'var(--accent-soft)',
  },
  '.cm-matchingBracket': { background: 'var(--accent-soft)', color: 'inherit' },
  '.cm-lintRange-error': { textDecoration: 'underline wavy var(--danger)', backgroundImage: 'none' },
});

export function JsonEditor(props: {
  id: string;
  label: string;
  value: string;
  onChange: (text: string) => void;
  marks?: readonly EditorMark[];
  describedBy?: string;
  invalid?: boolean;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the editor is made once; later props are applied below
  useEffect(() => {
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: props.value,
        extensions: [
          EditorView.cspNonce.of(cspNonce()),
          lineNumbers(),
          history(),
          indentOnInput(),
          bracketMatching(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          json(),
          theme,
          EditorView.lineWrapping,
          EditorView.updateListener.of((u) => {
            if (u.docChanged) onChange.current(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
  }, []);

  // the attributes of the editable element: its name, its description and whether it is invalid
  useEffect(() => {
    const content = view.current?.contentDOM;
    if (content === undefined) return;
    content.id = props.id;
    content.setAttribute('aria-label', props.label);
    if (props.describedBy) content.setAttribute('aria-describedby', props.describedBy);
    else content.removeAttribute('aria-describedby');
    if (props.invalid) content.setAttribute('aria-invalid', 'true');
    else content.removeAttribute('aria-invalid');
  }, [props.id, props.label, props.describedBy, props.invalid]);

  // a value set from outside (a rule loaded) replaces the text; the editor's own edits come back equal
  useEffect(() => {
    const v = view.current;
    if (v === null || v.state.doc.toString() === props.value) return;
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: props.value } });
  }, [props.value]);

  useEffect(() => {
    const v = view.current;
    if (v === null) return;
    const length = v.state.doc.length;
    const diagnostics: Diagnostic[] = (props.marks ?? []).map((m) => ({
      from: Math.min(m.from, length),
      to: Math.min(Math.max(m.to, m.from), length),
      severity: 'error',
      message: m.message,
    }));
    v.dispatch(setDiagnostics(v.state, diagnostics));
  }, [props.marks]);

  return <div ref={host} className="json-editor" data-invalid={props.invalid ? 'true' : undefined} />;
}
