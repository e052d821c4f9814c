// Requests to the Python worker are cut by count and by size of source: a few large files never make one huge reply.
import test from 'ava';
import { nextBatch, sharedBatches, sharedHalfChars, type SourceText } from '../lib/python/worker-pool.js';

const file = (i: number, chars: number): SourceText => ({ path: `m${i}.py`, oid: String(i).padStart(40, '0'), text: 'x'.repeat(chars) });
const sizes = (queue: SourceText[]) => {
  const out: number[] = [];
  for (let batch = nextBatch(queue); batch.length > 0; batch = nextBatch(queue)) out.push(batch.length);
  return out;
};

test('small files go 25 to a request', (t) => {
  t.deepEqual(sizes(Array.from({ length: 60 }, (_, i) => file(i, 2_000))), [25, 25, 10]);
});

test('large files go a few to a request, and a file larger than the cap goes alone', (t) => {
  t.deepEqual(sizes([file(0, 100_000), file(1, 100_000), file(2, 20_000), file(3, 500_000), file(4, 10)]), [1, 2, 1, 1]);
});

const kb = (batches: SourceText[][]) => batches.map((b) => b.map((f) => f.text.length / 1024));

test('shared with a forked copy, requests are two halves of up to 128 KB (256 KB when that makes one request), made from the largest file down', (t) => {
  // The ten files of a standard-library rename (373 KB): one request, its halves led by the two largest files.
  const rename = [12, 47, 21, 3, 12, 9, 109, 35, 23, 102].map((k, i) => file(i, k * 1024));
  t.is(sharedHalfChars(rename), 256 * 1024);
  t.deepEqual(kb(sharedBatches(rename, sharedHalfChars(rename))), [[109, 35, 23, 12, 9, 102, 47, 21, 12, 3]]);
  // With halves of 128 KB, two requests.
  t.deepEqual(kb(sharedBatches(rename)), [
    [109, 12, 3, 102, 23],
    [47, 12, 35, 21, 9],
  ]);
  // Two large files share a request (each alone in its half) instead of each sitting with small ones.
  const large = [30, 134, 20, 133, 10, 102, 300].map((k, i) => file(i, k * 1024));
  t.is(sharedHalfChars(large), 128 * 1024);
  t.deepEqual(kb(sharedBatches(large)), [
    [300, 134],
    [133, 102, 20],
    [30, 10],
  ]);
  // Very large files go a request each (a reply is ~10 characters of facts per character of source).
  const huge = [600, 550, 20].map((k, i) => file(i, k * 1024));
  t.deepEqual(kb(sharedBatches(huge)), [[600], [550], [20]]);
  // Every file exactly once, 25 at most to a request, the same requests for the same files.
  const many = Array.from({ length: 60 }, (_, i) => file(i, 1_000 + (i % 3)));
  const batches = sharedBatches(many);
  t.deepEqual(batches.map((b) => b.length), [25, 25, 10]);
  t.deepEqual(batches.flat().map((f) => f.path).sort(), many.map((f) => f.path).sort());
  t.deepEqual(sharedBatches(many), batches);
  t.deepEqual(sharedBatches([]), []);
});
