// The worker's facts_batch reply says where each file's facts lie in its JSON line: the facts cache stores that text
// as it is (no second JSON.stringify in Node), so the text must be exactly the facts the reply carries.
import test from 'ava';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Facts } from '../lib/python/facts.js';
import { FACTS_SCHEMA } from '../lib/python/facts-cache.js';
import { factsFor } from '../lib/python/facts-source.js';
import { resolvePython } from '../lib/python/interpreter.js';
import { PythonWorker, WORKER_SCRIPT } from '../lib/python/worker.js';
import { shutdownWorkers } from '../lib/python/worker-pool.js';

const python = (await resolvePython()).path;
const folders: string[] = [];
test.after.always(async () => {
  await shutdownWorkers();
  await Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true })));
});

const files = [
  { path: 'plain.py', content: 'import os\n\ndef f(a, b=1):\n    return os.path.join(a, str(b))\n' },
  { path: 'broken.py', content: 'def (:\n' },
  { path: 'wide.py', content: '# café ☕ \u2028 😀\ns = "héllo\\n\\u2028 😀"\nclass Größe:\n    ä = s  # "quoted" \\ backslash\n' },
];

type Batch = { results: Array<{ path: string; ok: boolean; facts?: Facts }>; facts_spans: Array<[number, number] | null> };

test('each file that parses has a span of the reply line holding exactly its facts; one that does not has null', async (t) => {
  const worker = await PythonWorker.start({ python, script: WORKER_SCRIPT });
  try {
    const { result, text } = await worker.requestWithText<Batch>('facts_batch', { files });
    t.deepEqual(result.results.map((r) => r.ok), [true, false, true]);
    t.is(result.facts_spans.length, files.length);
    t.is(result.facts_spans[1], null);
    for (const [i, r] of result.results.entries()) {
      const span = result.facts_spans[i];
      if (!r.ok) continue;
      t.truthy(span, r.path);
      t.deepEqual(JSON.parse(text.slice(span![0], span![1])), r.facts, r.path);
    }
    // Escaped to ASCII, so offsets count the same in bytes and in UTF-16 units.
    t.regex(text, /^[\x20-\x7e]*$/);
  } finally {
    await worker.shutdown();
  }
});

test('the facts cache holds the worker text, and facts read back from it equal the parsed ones', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tug-facts-text-'));
  folders.push(dir);
  const sources = files.map((f, i) => ({ path: f.path, oid: String(i + 1).padStart(40, 'a'), text: f.content }));
  const options = { cacheDir: path.join(dir, 'facts'), workersDir: path.join(dir, 'workers'), python: async () => python, skipUnparsable: true, files: sources };
  const fresh = await factsFor(options);
  t.is(fresh.parsed, 3);
  t.deepEqual(fresh.unparsable.map((u) => u.path), ['broken.py']);
  const packs = path.join(dir, 'facts', FACTS_SCHEMA, 'packs');
  const pack = await readFile(path.join(packs, (await readdir(packs)).find((p) => p.endsWith('.jsonl'))!), 'utf8');
  // Python's encoder escapes non-ASCII; JSON.stringify would have written it as it is.
  t.true(pack.includes('Gr\\u00f6\\u00dfe'));
  const cached = await factsFor(options);
  t.is(cached.parsed, 0);
  t.deepEqual([...cached.facts.keys()].sort(), ['plain.py', 'wide.py']);
  for (const [file, facts] of fresh.facts) t.deepEqual(cached.facts.get(file), facts, file);
  t.deepEqual(cached.unparsable, fresh.unparsable);
});
