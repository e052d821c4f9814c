// The worker's stdout is cut into lines by jsonLines (readline re-scanned a multi-MB facts line): every line comes out
// whole and decoded once, whatever the chunk boundaries, including one inside a multi-byte character, and a last
// line without a newline still arrives when the stream ends, as with readline.
import test from 'ava';
import { PassThrough } from 'node:stream';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { jsonLines } from '../lib/python/json-lines.js';
import { PythonWorker, WORKER_SCRIPT } from '../lib/python/worker.js';
import { resolvePython } from '../lib/python/interpreter.js';

async function linesOf(chunks: Buffer[], read: (input: PassThrough) => { on(event: 'line', f: (l: string) => void): unknown }): Promise<string[]> {
  const input = new PassThrough();
  const out: string[] = [];
  read(input).on('line', (l) => out.push(l));
  const ended = once(input, 'end');
  for (const c of chunks) input.write(c);
  input.end();
  await ended;
  await new Promise((r) => setImmediate(r));
  return out;
}

/** Every way of cutting the bytes into three chunks. */
function cuts(bytes: Buffer): Buffer[][] {
  const out: Buffer[][] = [];
  for (let a = 0; a <= bytes.length; a++) for (let b = a; b <= bytes.length; b++) out.push([bytes.subarray(0, a), bytes.subarray(a, b), bytes.subarray(b)]);
  return out;
}

test('lines equal readline’s for every cut of the bytes into chunks', async (t) => {
  const text = '{"a":"é😀"}\n\n{"b":[1,2]}\nlast without newline ☕';
  const bytes = Buffer.from(text, 'utf8');
  const expected = await linesOf([bytes], (input) => createInterface({ input }));
  t.deepEqual(expected, ['{"a":"é😀"}', '', '{"b":[1,2]}', 'last without newline ☕']);
  for (const chunks of cuts(bytes)) t.deepEqual(await linesOf(chunks, jsonLines), expected, chunks.map((c) => c.length).join(','));
});

test('a facts reply of several MB arrives as one line, as the worker wrote it', async (t) => {
  const python = (await resolvePython()).path;
  const worker = await PythonWorker.start({ python, script: WORKER_SCRIPT });
  try {
    const body = Array.from({ length: 1000 }, (_, i) => `def f${i}(a, b=1):\n    return g(a, "é${i}")  # ☕\n`).join('');
    const files = [{ path: 'big.py', content: body }, { path: 'small.py', content: 'x = 1\n' }];
    const { result, text } = await worker.requestWithText<{ results: Array<{ ok: boolean }> }>('facts_batch', { files });
    t.true(text.length > 200_000);
    t.deepEqual(result.results.map((r) => r.ok), [true, true]);
    t.deepEqual(JSON.parse(text).result, result);
  } finally {
    await worker.shutdown();
  }
});
