// The real Python worker over its JSON-lines protocol: handshake, facts with exact byte spans, errors, timeouts, crashes.
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { TugError } from '../lib/core/errors.js';
import type { Facts } from '../lib/python/facts.js';
import { PythonWorker, WORKER_SCRIPT } from '../lib/python/worker.js';
import { resolvePython } from '../lib/python/interpreter.js';

const python = (await resolvePython()).path;

// The pid files' folders, removed once the file's tests are done.
const folders: string[] = [];
test.after.always(() => Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true }))));

async function start(): Promise<{ worker: PythonWorker; pidFile: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tug-worker-'));
  folders.push(dir);
  const pidFile = path.join(dir, 'python.pid');
  return { worker: await PythonWorker.start({ python, script: WORKER_SCRIPT, pidFile }), pidFile };
}

test('the worker says ready with its versions, records its pid, and shuts down cleanly', async (t) => {
  const { worker, pidFile } = await start();
  t.is(worker.ready.protocol, 1);
  t.regex(worker.ready.python, /^3\.\d+\.\d+$/);
  t.truthy(worker.ready.libcst, 'LibCST is importable by the resolved Python');
  t.is(Number(await readFile(pidFile, 'utf8')), worker.ready.pid);
  t.deepEqual(await worker.request('ping'), { pong: true });
  await worker.shutdown();
  t.false(worker.alive);
  await t.throwsAsync(stat(pidFile));
});

test('facts carry exact UTF-8 byte spans, also after non-ASCII text, CRLF and a BOM', async (t) => {
  const { worker } = await start();
  const source = '\ufeff# café ☕\r\nimport os as système\r\n\r\nclass Größe:\r\n    def m(self, ä=1):\r\n        return self.m(ä=ä) or système.sep\r\n';
  const bytes = Buffer.from(source, 'utf8');
  const facts = await worker.request<Facts>('facts', { path: 'x.py', content: source });
  const text = (span: [number, number]) => bytes.subarray(span[0], span[1]).toString('utf8');
  for (const b of facts.bindings) t.is(text(b.span), b.name, `binding ${b.name}`);
  for (const r of facts.references) t.is(text(r.span), r.name, `reference ${r.name}`);
  for (const a of facts.attributes) t.is(text(a.span), a.attr, `attribute ${a.attr}`);
  for (const c of facts.calls) for (const k of c.keywords) t.is(text(k.span), k.name, `keyword ${k.name}`);
  t.deepEqual(facts.bindings.map((b) => b.name), ['système', 'Größe', 'm', 'self', 'ä']);
  await worker.shutdown();
});

test('Python scoping: class bodies do not enclose methods, comprehensions have their own scope, global and nonlocal redirect', async (t) => {
  const { worker } = await start();
  const source = [
    'x = 1',
    'class C:',
    '    x = 2',
    '    def m(self):',
    '        return x',
    '    ys = [x for _ in range(3)]',
    'def f():',
    '    global x',
    '    x = 3',
    '    n = 0',
    '    def g():',
    '        nonlocal n',
    '        n += 1',
    '    return [n for n in range(2)], n',
    '',
  ].join('\n');
  const facts = await worker.request<Facts>('facts', { path: 's.py', content: source });
  const binding = (id: number) => facts.bindings[id]!;
  const refsAt = (line: number) => facts.references.filter((r) => r.line === line && r.name !== 'range');
  const resolvedLine = (line: number, index = 0) => {
    const r = refsAt(line)[index]!.resolved;
    return 'binding' in r ? binding(r.binding).line : r;
  };
  t.is(resolvedLine(5), 1, 'a method sees the module x, not the class x');
  t.is(resolvedLine(6), 1, 'a comprehension in a class body skips the class scope');
  t.is(refsAt(8)[0]!.name, 'x');
  t.is(resolvedLine(9), 1, 'x = 3 under `global x` assigns the module x');
  t.is(resolvedLine(13), 10, 'nonlocal n is the n of f');
  const inComprehension = refsAt(14).filter((r) => r.name === 'n');
  t.is(binding((inComprehension[0]!.resolved as { binding: number }).binding).kind, 'for_target', 'the comprehension n is its own');
  t.is(binding((inComprehension[1]!.resolved as { binding: number }).binding).line, 10, 'the n after the comprehension is f’s');
  await worker.shutdown();
});

test('errors are answers: syntax errors, unknown ops, LibCST checks; the worker keeps serving', async (t) => {
  const { worker } = await start();
  const syntax = await t.throwsAsync(worker.request('facts', { path: 'bad.py', content: 'def (:\n' }));
  t.is((syntax as TugError).code, 'SourceSyntaxError');
  t.is((syntax as TugError).details?.['line'], 1);
  const unknown = await t.throwsAsync(worker.request('frobnicate'));
  t.is((unknown as TugError).details?.['worker_code'], 'UnknownOperation');
  t.deepEqual(await worker.request('rewrite_check', { path: 'ok.py', content: 'x = 1\n' }), { ok: true });
  t.deepEqual(await worker.request('ping'), { pong: true });
  await worker.shutdown();
});

test('a malformed line gets a BadRequest answer with a null id', async (t) => {
  const child = spawn(python, ['-u', WORKER_SCRIPT], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const iterator = lines[Symbol.asyncIterator]();
  t.is(JSON.parse((await iterator.next()).value).type, 'ready');
  child.stdin.write('{not json\n');
  const reply = JSON.parse((await iterator.next()).value);
  t.is(reply.id, null);
  t.is(reply.error.code, 'BadRequest');
  child.stdin.end();
  await new Promise((resolve) => child.once('exit', resolve));
  t.is(child.exitCode, 0, 'EOF on stdin is a clean exit');
});

test('a request past its deadline is WorkerTimeout; a killed worker fails pending requests with WorkerCrashed', async (t) => {
  const { worker } = await start();
  const big = 'x = 1\n'.repeat(100_000);
  const timeout = await t.throwsAsync(worker.request('facts', { path: 'big.py', content: big }, 1));
  t.is((timeout as TugError).code, 'WorkerTimeout');
  const second = await start();
  const pending = second.worker.request('facts', { path: 'big.py', content: big });
  process.kill(second.worker.ready.pid, 'SIGKILL');
  const crash = await t.throwsAsync(pending);
  t.is((crash as TugError).code, 'WorkerCrashed');
  await t.throwsAsync(second.worker.request('ping'), { instanceOf: TugError });
  await worker.shutdown();
});
