// Array semantics: fields matched inside one array element must come from the same element; an array no matched
// field pins is seen whole by exists:false.
import { suite } from 'uvu';
import { matches, misses } from './expect.ts';

const test = suite('pattern: arrays');

const songs = {
  Year: 1966,
  Genres: [{ Pop: true }, { Classical: false }],
  Songs: [
    {
      Name: 'Paperback Writer',
      Writers: [
        { First: 'John', Last: 'Lennon' },
        { First: 'Paul', Last: 'McCartney' },
      ],
    },
    {
      Name: 'Paint It Black',
      Writers: [
        { First: 'Mick', Last: 'Jagger' },
        { First: 'Keith', Last: 'Richards' },
      ],
    },
  ],
};

test('fields of one element match together', () => {
  matches({ Songs: { Name: ['Paperback Writer'], Writers: { First: ['Paul'], Last: ['McCartney'] } } }, songs);
  matches({ Genres: { Pop: [true] }, Songs: { Name: ['Paint It Black'] } }, songs);
});

test('fields from different elements do not', () => {
  misses({ Songs: { Name: ['Paperback Writer'], Writers: { First: ['Mick'] } } }, songs);
  misses({ Songs: { Writers: { First: ['Mick'], Last: ['McCartney'] } } }, songs);
  misses(
    { h: { isBluePrint: [false], creator: ['A123'] } },
    {
      h: [
        { isBluePrint: true, creator: 'A123' },
        { isBluePrint: false, creator: 'A234' },
      ],
    },
  );
});

test('different arrays do not constrain each other', () => {
  matches({ a: { x: ['1'] }, b: { y: ['2'] } }, { a: [{ x: '0' }, { x: '1' }], b: [{ y: '2' }, { y: '3' }] });
});

test('nested arrays are opened: an element of an element is an element', () => {
  const employees = {
    employees: [
      [{ firstName: 'John', ids: [1234, 1000, 9999] }, { firstName: 'Anna' }],
      [{ firstName: 'Peter', ids: [] }],
    ],
  };
  matches({ employees: { firstName: ['John'], ids: [1000] } }, employees);
  misses({ employees: { firstName: ['Anna'], ids: [1000] } }, employees);
  misses({ employees: { firstName: ['Anna'], ids: [{ exists: true }] } }, employees);
  matches({ employees: { firstName: ['Anna'], ids: [{ exists: false }] } }, employees);
  matches({ employees: { firstName: ['Peter'], ids: [{ exists: false }] } }, employees);
  misses({ employees: ['b'] }, employees);
});

test('exists:false next to positive fields is judged in the element they pin', () => {
  const event = { items: [{ sku: 'X', discount: 5 }, { sku: 'Y' }] };
  matches({ items: { sku: ['Y'], discount: [{ exists: false }] } }, event);
  misses({ items: { sku: ['X'], discount: [{ exists: false }] } }, event);
});

test('exists:false alone: an array that no matched field pins is seen whole', () => {
  misses({ items: { discount: [{ exists: false }] } }, { items: [{ sku: 'X', discount: 5 }, { sku: 'Y' }] });
  matches({ items: { discount: [{ exists: false }] } }, { items: [{ sku: 'X' }, { sku: 'Y' }] });
  matches({ items: { discount: [{ exists: false }] } }, { items: [] });
  matches({ items: { discount: [{ exists: false }] } }, { items: [1, 'two'] });
});

test('a pinned element reaches down: exists:false deeper inside it', () => {
  const event = {
    tasks: [
      { state: 'ACTIVE', resources: [{ id: 'r1' }] },
      { state: 'IDLE', resources: [{ id: 'r2', extra: { name: 'n' } }] },
    ],
  };
  matches({ tasks: { state: ['ACTIVE'], resources: { extra: { name: [{ exists: false }] } } } }, event);
  misses({ tasks: { state: ['IDLE'], resources: { extra: { name: [{ exists: false }] } } } }, event);
});

test('leaf arrays: any element, never constraining other fields', () => {
  const event = {
    bands: [
      {
        members: [
          { given: 'Wata', role: ['guitar', 'vocals'] },
          { given: 'Atsuo', role: ['drums'] },
        ],
      },
    ],
  };
  matches({ bands: { members: { given: ['Wata'], role: ['guitar'] } } }, event);
  misses({ bands: { members: { given: ['Wata'], role: ['drums'] } } }, event);
});

test('a top-level array event: each element is tried', () => {
  matches({ a: ['1'], b: ['2'] }, [{ a: '1', b: '2' }, { a: '3' }]);
  misses({ a: ['1'], b: ['2'] }, [{ a: '1' }, { b: '2' }]);
});

test.run();
