// Requests to the Python worker are cut by count and by size of source: a few large files never make one huge reply.
import test from 'ava';
import { nextBatch, sharedBatchChars, type SourceText } from '../lib/python/worker-pool.js';

const file = (i: number, chars: number): SourceText => ({ path: `m${i}.py`, oid: String(i).padStart(40, '0'), text: 'x'.repeat(chars) });
const sizes = (queue: SourceText[], maxChars?: number) => {
  const out: number[] = [];
  for (let batch = nextBatch(queue, maxChars); batch.length > 0; batch = nextBatch(queue, maxChars)) out.push(batch.length);
  return out;
};

test('small files go 25 to a request', (t) => {
  t.deepEqual(sizes(Array.from({ length: 60 }, (_, i) => file(i, 2_000))), [25, 25, 10]);
});

test('large files go a few to a request, and a file larger than the cap goes alone', (t) => {
  t.deepEqual(sizes([file(0, 100_000), file(1, 100_000), file(2, 20_000), file(3, 500_000), file(4, 10)]), [1, 2, 1, 1]);
});

test('shared with a forked copy, source that would take two requests goes in one; more still goes 256 KB at a time', (t) => {
  const rename = [12, 47, 21, 3, 12, 9, 109, 35, 23, 102].map((kb, i) => file(i, kb * 1024));
  t.deepEqual(sizes(rename, sharedBatchChars(rename)), [10]);
  const small = [file(0, 10), file(1, 20)];
  t.deepEqual(sizes(small, sharedBatchChars(small)), [2]);
  const large = Array.from({ length: 6 }, (_, i) => file(i, 100 * 1024));
  t.deepEqual(sizes(large, sharedBatchChars(large)), [2, 2, 2]);
});
