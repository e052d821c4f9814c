// The worker's extract-function planner called directly: the edits it returns, applied to the text, give code that
// compiles and prints what the original printed; each refusal names its code.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PythonWorker, WORKER_SCRIPT } from '../lib/python/worker.js';
import { resolvePython } from '../lib/python/interpreter.js';

const python = (await resolvePython()).path;
const pidDir = await mkdtemp(path.join(os.tmpdir(), 'tug-ef-'));
const worker = await PythonWorker.start({ python, script: WORKER_SCRIPT, pidFile: path.join(pidDir, 'python.pid') });
test.after.always(async () => {
  await worker.shutdown();
  await rm(pidDir, { recursive: true, force: true });
});

interface Answer {
  edits?: { span: [number, number]; new_text: string }[];
  refused?: { code: string; message: string };
  params?: string[];
  results?: string[];
}

/** The byte range from the first `«` to the first `»` (markers removed), extracted into `name`. */
async function extract(marked: string, name: string): Promise<{ answer: Answer; before: string; after: string }> {
  const before = marked.replace('«', '').replace('»', '');
  const start = Buffer.byteLength(marked.slice(0, marked.indexOf('«')));
  const end = Buffer.byteLength(marked.slice(0, marked.indexOf('»'))) - Buffer.byteLength('«');
  const answer = await worker.request<Answer>('extract_function', { content: before, start, end, name });
  let bytes = Buffer.from(before);
  for (const e of [...(answer.edits ?? [])].sort((a, b) => b.span[0] - a.span[0])) {
    bytes = Buffer.concat([bytes.subarray(0, e.span[0]), Buffer.from(e.new_text), bytes.subarray(e.span[1])]);
  }
  return { answer, before, after: bytes.toString('utf8') };
}

const run = (source: string) => execFileSync(python, ['-c', source], { encoding: 'utf8' });

const OK: [string, string, string][] = [
  ['loop body with a result', 'def f(xs):\n    best = 0\n    for x in xs:\n        «sq = x * x\n        if sq > best:\n            best = sq»\n    return best\n\nprint(f([1, -3, 2]))\n', 'bigger'],
  ['module level keeps every name assigned', 'import os\n\nbase = 2\n«power = base ** 3\nlabel = "p%d" % power»\nprint(power, label)\n', 'compute'],
  ['a method through self', 'class C:\n    def __init__(self):\n        self.n = 1\n\n    def go(self, k):\n        «self.n += k\n        out = self.n * 2»\n        return out\n\nprint(C().go(3))\n', 'bump'],
  ['a method that does not use self becomes a function', 'class C:\n    def go(self, k):\n        «j = k + 1»\n        return j\n\nprint(C().go(3))\n', 'plus_one'],
  ['async with await', 'import asyncio\n\nasync def f(d):\n    «await asyncio.sleep(0)\n    v = d * 2»\n    return v\n\nprint(asyncio.run(f(4)))\n', 'later'],
  ['a multi-line string keeps its lines', 'def f(a):\n    if a:\n        «s = """one\n  two"""\n        print(s)»\n    return a\n\nf(1)\n', 'show'],
  ['a loop with its own break', 'def f(xs):\n    «for x in xs:\n        if x > 2:\n            break\n        print(x)»\n    return 0\n\nf([1, 2, 3, 4])\n', 'upto'],
  ['the tail of a function returns the call', 'def f(a):\n    b = a * 2\n    «if b > 3:\n        return "big"\n    print(b)»\n\nprint(f(1), f(5))\n', 'tail'],
  ['a result bound before is also a parameter', 'def f(a):\n    r = 0\n    «if a:\n        r = 5»\n    return r\n\nprint(f(0), f(1))\n', 'maybe'],
];

for (const [title, marked, name] of OK) {
  test(`extracts: ${title}`, async (t) => {
    const { answer, before, after } = await extract(marked, name);
    t.is(answer.refused, undefined, JSON.stringify(answer.refused));
    t.true(after.includes(`def ${name}(`), after);
    t.is(run(after), run(before), after);
  });
}

test('CRLF files get CRLF in the new function', async (t) => {
  const { after } = await extract('def f(a):\r\n    «b = a + 1»\r\n    return b\r\n\r\nprint(f(1))\r\n', 'g');
  t.false(/[^\r]\n/.test(after), JSON.stringify(after));
  t.is(run(after), '2\n');
});

const REFUSED: [string, string, string, string][] = [
  ['return', 'def f(a):\n    «if a:\n        return 1»\n    return 2\n', 'g', 'UnsafeRefactor'],
  ['yield', 'def f(a):\n    «yield a»\n', 'g', 'UnsafeRefactor'],
  ['break for an outer loop', 'def f(xs):\n    for x in xs:\n        «if x:\n            break»\n', 'g', 'UnsafeRefactor'],
  ['global', 'N = 0\ndef f():\n    global N\n    «N += 1»\n', 'g', 'UnsafeRefactor'],
  ['assigned on some paths only', 'def f(a):\n    «if a:\n        r = 1»\n    return r\n', 'g', 'UnsafeRefactor'],
  ['read before its assignment later in the loop', 'def f(xs):\n    for x in xs:\n        «if x > 1:\n            print(prev)»\n        prev = x\n', 'g', 'UnsafeRefactor'],
  ['a cut statement', 'def f(a):\n    «b = a\n    c» = b\n', 'g', 'InvalidSelection'],
  ['del of a local', 'def f(a):\n    b = a\n    «del b»\n    return a\n', 'g', 'UnsafeRefactor'],
  ['a staticmethod whose first parameter the range uses', 'class C:\n    @staticmethod\n    def make(cls, a):\n        «b = cls(a)»\n        return b\n', 'g', 'UnsupportedOperation'],
  ['a class body', 'class C:\n    «x = 1»\n', 'g', 'UnsafeRefactor'],
  ['a name clash', 'def g():\n    pass\n\ndef f(a):\n    «b = a»\n    return b\n', 'g', 'NameConflict'],
  ['a keyword as name', 'def f(a):\n    «b = a»\n    return b\n', 'for', 'InvalidArgument'],
];

for (const [title, marked, name, code] of REFUSED) {
  test(`refuses: ${title}`, async (t) => {
    const { answer } = await extract(marked, name);
    t.is(answer.refused?.code, code, JSON.stringify(answer));
  });
}
