// The bridge editors' browser logic on one page each (the location's hash picks it), for
// bridge.components.browser.spec.ts: the pattern editor over a validator the test observes (it refuses
// like the API: code, message, the path), and a target's conversion editor over a previewer whose answers
// the test releases one by one (a late answer must not win over the newest). Built with Vite.
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError } from '../../src/api/errors.ts';
import type { ConversionPreview } from '../../src/areas/bridge/bridge-api.ts';
import { emptyConversion } from '../../src/areas/bridge/conversion.ts';
import { ConversionEditor } from '../../src/areas/bridge/conversion-editor.tsx';
import { usePatternCheck } from '../../src/areas/bridge/pattern-check.ts';
import { PatternEditor } from '../../src/areas/bridge/pattern-editor.tsx';
import '../../src/styles/base.css';
import '../../src/styles/shell.css';
import '../../src/styles/ui.css';
import '../../src/areas/bridge/bridge.css';

declare global {
  interface Window {
    /** the patterns the validator was asked about */
    validated: unknown[];
    /** the conversions the previewer was asked about */
    previews: unknown[];
    /** answers the waiting preview requests, newest last; answers how many */
    releasePreviews(order?: 'in-order' | 'newest-first'): number;
  }
}
window.validated = [];
window.previews = [];

// refuses like test-pattern: a key "bad" is invalid at bad[0]; a key "down" is an unavailable API
const validate = async (pattern: unknown): Promise<void> => {
  window.validated.push(pattern);
  const p = pattern as Record<string, unknown>;
  if ('down' in p) throw new ApiError(503, 'SERVICE.UNAVAILABLE', 'the bridge is not reachable');
  if ('bad' in p)
    throw new ApiError(400, 'PATTERN.INVALID', 'Invalid pattern at bad[0]: must be a string, number or object', {
      path: 'bad[0]',
      reason: 'must be a string, number or object',
    });
};

function PatternFixture() {
  const [text, setText] = useState('{\n  "source": ["shop:orders"]\n}');
  const check = usePatternCheck(text, validate, 150);
  return (
    <main>
      <h1>Pattern</h1>
      <PatternEditor id="pattern" value={text} onChange={setText} check={check} />
    </main>
  );
}

type Waiting = {
  conversion: Record<string, unknown>;
  resolve: (r: ConversionPreview) => void;
  reject: (e: unknown) => void;
};
const waiting: Waiting[] = [];
// renders like test-conversion for the fixture's sample: partial of $.data.* and constants; "$.nothing" matches nothing
const answer = (c: Record<string, unknown>, w: Waiting) => {
  if (c.kind === 'partial' && typeof c.path === 'string' && !c.path.startsWith('$'))
    return w.reject(
      new ApiError(400, 'REQUEST.INVALID', 'request validation failed: body.conversion.path must start with $', [
        { in: 'body', field: 'conversion.path', message: 'must start with $' },
      ]),
    );
  if (c.kind === 'partial' && c.path === '$.nothing')
    return w.resolve({ ok: false, error: 'JSONPath $.nothing: path matched nothing' });
  if (c.kind === 'partial') return w.resolve({ ok: true, body: { path: c.path }, missing: [] });
  if (c.kind === 'constant') return w.resolve({ ok: true, body: c.value, missing: [] });
  return w.resolve({ ok: true, body: SAMPLE, missing: [] });
};
window.releasePreviews = (order = 'in-order') => {
  const all = waiting.splice(0);
  for (const w of order === 'in-order' ? all : [...all].reverse()) answer(w.conversion, w);
  return all.length;
};
const SAMPLE = { id: 's-1', source: 'shop:orders', data: { amount: 5 } };
const preview = (conversion: unknown): Promise<ConversionPreview> =>
  new Promise((resolve, reject) => {
    window.previews.push(conversion);
    waiting.push({ conversion: conversion as Record<string, unknown>, resolve, reject });
  });

function ConversionFixture() {
  const [draft, setDraft] = useState(emptyConversion());
  return (
    <main>
      <h1>Conversion</h1>
      <ConversionEditor value={draft} onChange={setDraft} sample={SAMPLE} preview={preview} delayMs={50} />
    </main>
  );
}

const fixtures: Record<string, () => React.JSX.Element> = { pattern: PatternFixture, conversion: ConversionFixture };
const Fixture = fixtures[location.hash.slice(1)] ?? PatternFixture;
createRoot(document.getElementById('root')!).render(<Fixture />);
