// equals-ignore-case: Unicode case folding (upper then lower case), strings only.
import { suite } from 'uvu';
import { matches, misses } from './expect.ts';

const test = suite('pattern: equals-ignore-case');
const eic = (s: string) => ({ x: [{ 'equals-ignore-case': s }] });

test('equal ignoring case, whole string', () => {
  matches(eic('aBc'), { x: 'AbC' });
  matches(eic('VIEW FROM 15th FLOOR'), { x: 'View from 15th Floor' });
  misses(eic('aBc'), { x: 'aabc' });
  misses(eic('xyZ'), { x: 'xyzz' });
});

test('Unicode: ß folds to SS, final sigma to sigma, accents stay', () => {
  matches(eic('STRASSE'), { x: 'straße' });
  matches(eic('ΟΔΟΣ'), { x: 'οδοσ' });
  misses(eic('e'), { x: 'é' });
});

test('never matches non-strings', () => {
  misses(eic('true'), { x: true });
  misses(eic('null'), { x: null });
  misses(eic('1'), { x: 1 });
});

test.run();
