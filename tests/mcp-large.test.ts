// cutLarge hands plain results with nothing to cut back as they are: their JSON must be exactly what the copy's was, and
// anything the copy would have changed (a Date, a class instance, a long string) still goes through the copy.
import test from 'ava';
import { CutStore, CUT_OVER, cutLarge } from '../lib/mcp/large.js';

/** The copy cutLarge made of every value before (objects rebuilt from their entries, arrays mapped), for comparison. */
function copied(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copied);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copied(v)]));
  return value;
}

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
  get sum(): number {
    return this.x + this.y;
  }
}

const samples: Record<string, unknown>[] = [
  { status: 'ok', n: 1, f: 1.5, t: true, none: null, gone: undefined, list: [1, 'a', [2, { deep: 'x' }], null], empty: {}, none2: [] },
  { patch: { files: Array.from({ length: 50 }, (_, i) => ({ path: `src/m${i}.ts`, hunks: [{ lines: ['-a', '+b'] }] })) } },
  { nested: Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, b: ['x'] }) },
  { sparse: [1, , 3] },
  { __proto__: null, plain: 'no prototype' } as Record<string, unknown>,
  { when: new Date(0) },
  { point: new Point(1, 2) },
  { json: { toJSON: () => 'custom' } },
  { big: 'x'.repeat(CUT_OVER) },
];

test('a result with nothing to cut has the JSON the copy had, for plain data and anything else', (t) => {
  for (const value of samples) {
    const { value: out, cuts } = cutLarge(value, new CutStore());
    t.is(JSON.stringify(out), JSON.stringify(copied(value)), JSON.stringify(copied(value)).slice(0, 80));
    t.deepEqual(cuts, []);
  }
});

test('plain data with nothing to cut is not copied; other values and long strings still are', (t) => {
  const plain = { a: [1, { b: 'c' }] };
  t.is(cutLarge(plain, new CutStore()).value, plain);
  const dated = { when: new Date(0) };
  t.not(cutLarge(dated, new CutStore()).value, dated);
  const long = { ok: 'short', patch: 'y'.repeat(CUT_OVER + 1) };
  const { value, cuts } = cutLarge(long, new CutStore());
  t.not(value, long);
  t.is(value['ok'], 'short');
  t.true(String(value['patch']).length < CUT_OVER);
  t.deepEqual(cuts.map((c) => [c.path, c.chars]), [['patch', CUT_OVER + 1]]);
  t.is(long.patch.length, CUT_OVER + 1, 'the caller keeps its value whole');
});
