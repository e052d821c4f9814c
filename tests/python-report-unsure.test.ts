// Unsure occurrences on the terminal, `__getattr__` warnings only where the renamed name can reach them, UnresolvedSymbol.
import test from 'ava';
import { summarize } from '../lib/cli/summary.js';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';

const untyped = (n: number) => Array.from({ length: n }, (_, i) => `def use_${i}(thing):\n    return thing.send()\n`).join('\n\n');

test('the terminal summary gives the unsure count and the first three', async (t) => {
  const repo = await makeRepo({ 'mail.py': `class Mailer:\n    def send(self):\n        return 1\n\n\n${untyped(5)}` });
  const run = await tug(repo.root, ['rename', 'mail.py:2:9', 'deliver', '--verify', 'syntax']);
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.unsure.length, 5);
  const text = summarize('rename', run.json);
  t.regex(text, /unsure {2}5 occurrence\(s\) tug could not prove, left unchanged \(--include-unsure renames them\):/);
  t.regex(text, /mail\.py:7:18 {2}thing\.send {2}\(untyped receiver\)/);
  t.regex(text, /… and 2 more/);
  t.is(text.split('\n').filter((l) => l.startsWith('    mail.py:')).length, 3);
  await repo.cleanup();
});

test('a `__getattr__` hook is named only when the renamed name can be looked up through it', async (t) => {
  const repo = await makeRepo({
    'pkg/__init__.py': '',
    // Touched by the rename (it calls send) but its hooks cannot serve `send`: no warning.
    'pkg/proxy.py': 'from pkg.mail import Mailer\n\n\nclass Lazy:\n    def __getattr__(self, name):\n        return None\n\n\ndef __getattr__(name):\n    raise AttributeError(name)\n\n\ndef go(m: Mailer):\n    return m.send()\n',
    'pkg/mail.py': 'class Mailer:\n    def send(self):\n        return 1\n\n\nclass Forward(Mailer):\n    def __getattr__(self, name):\n        return None\n',
  });
  const run = await tug(repo.root, ['rename', 'pkg/mail.py:2:9', 'deliver', '--verify', 'syntax']);
  t.is(run.exitCode, 0, run.stdout);
  const hooks = run.json.warnings.filter((w: { code: string; message: string }) => w.code === 'DynamicReference' && w.message.startsWith('__getattr__'));
  t.deepEqual(hooks.map((w: { location: { file: string; line: number } }) => `${w.location.file}:${w.location.line}`), ['pkg/mail.py:7'], 'only the subclass of Mailer');
  await repo.cleanup();
});

test('a cursor on an attribute of an untyped receiver is UnresolvedSymbol naming the receiver', async (t) => {
  const repo = await makeRepo({ 'run.py': 'def go(arg):\n    return arg.run()\n' });
  const run = await tug(repo.root, ['rename', 'run.py:2:16', 'start', '--verify', 'syntax']);
  t.is(run.exitCode, 3);
  t.is(run.json.error.code, 'UnresolvedSymbol');
  t.is(run.json.error.message, '`arg.run` — the type of `arg` is unknown');
  const plain = await tug(repo.root, ['rename', 'run.py:1:1', 'start', '--verify', 'syntax']);
  t.is(plain.json.error.code, 'SymbolNotFound', 'a keyword is still no symbol');
  await repo.cleanup();
});

test('analyze-impact lists the unsure places too, and a keyword on an untyped call is UnresolvedSymbol', async (t) => {
  const repo = await makeRepo({ 'jobs.py': 'class Job:\n    def run(self, retries=0):\n        return retries\n\n\ndef go(task, job: Job):\n    job.run(retries=1)\n    return task.run(retries=2)\n' });
  const impact = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'jobs.py:2:19', '--to', 'attempts']);
  t.is(impact.exitCode, 0, impact.stdout);
  t.is(impact.json.references.length, 3, 'the parameter, its use, and the typed call');
  t.deepEqual(impact.json.unsure, [{ file: 'jobs.py', line: 8, col: 21, text: 'task.run(retries=…)', reason: 'untyped_receiver', renamed: false }]);
  const keyword = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'jobs.py:8:21', '--to', 'attempts']);
  t.is(keyword.json.error.code, 'UnresolvedSymbol');
  t.is(keyword.json.error.details.receiver, 'task');
  await repo.cleanup();
});

test('include_unsure and keep_alias reach the operation through the tool door too', async (t) => {
  const repo = await makeRepo({ 'mail.py': 'class Mailer:\n    def send(self):\n        return 1\n\n\ndef use(thing):\n    return thing.send()\n' });
  const args = JSON.stringify({ file: 'mail.py', line: 2, column: 9, new_name: 'deliver', include_unsure: true, keep_alias: true, verify: 'syntax' });
  const run = await tug(repo.root, ['tool', 'tug_rename_symbol', '--args', args]);
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(run.json.unsure.map((u: { renamed: boolean }) => u.renamed), [true]);
  t.true(run.json.warnings.some((w: { code: string }) => w.code === 'AliasKept'));
  t.regex(run.json.patch.unified_diff, /\+ {4}send = deliver {2}# deprecated alias/);
  await repo.cleanup();
});
