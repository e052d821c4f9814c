// Unsure occurrences on the terminal, `__getattr__` warnings only where the renamed name can reach them, UnresolvedSymbol.
import test from 'ava';
import { summarize } from '../lib/cli/summary.js';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';

const untyped = (n: number) => Array.from({ length: n }, (_, i) => `def use_${i}(thing):\n    return thing.send()\n`).join('\n\n');

test('the terminal summary gives the unsure count and lists each place with its text', async (t) => {
  const repo = await makeRepo({ 'mail.py': `class Mailer:\n    def send(self):\n        return 1\n\n\n${untyped(5)}` });
  const run = await tug(repo.root, ['rename', 'mail.py:2:9', 'deliver', '--verify', 'syntax']);
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.unsure.length, 5);
  const text = summarize('rename', run.json);
  t.regex(text, /unsure {2}5 occurrence\(s\) tug could not prove, left unchanged \(--include-unsure renames them\):/);
  t.regex(text, /mail\.py:7:18 {2}thing\.send {2}\(untyped receiver\)/);
  t.notRegex(text, /… and \d+ more/, 'five places fit: none is left to the JSON');
  t.is(text.split('\n').filter((l) => l.startsWith('    mail.py:')).length, 5);
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

test('an attribute of a workspace module that binds no such name is listed as unresolved (a proxy module, as toolz\'s tlz)', async (t) => {
  const repo = await makeRepo({
    'pkg/__init__.py': '',
    'pkg/core.py': 'def pipe(x):\n    return x\n',
    // The module replaces itself: `proxy.pipe` is pkg.core.pipe at run time, which no binding shows.
    'proxy/__init__.py': 'import sys\n\nimport pkg.core\n\nsys.modules[__name__] = pkg.core\n',
    'use.py': 'import pkg.core\nimport proxy\n\nprint(proxy.pipe(1), pkg.core.pipe(2))\n',
  });
  const run = await tug(repo.root, ['rename', 'pkg/core.py:1:5', 'pipe_r', '--verify', 'none']);
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(run.json.unsure, [{ file: 'use.py', line: 4, col: 13, text: 'proxy.pipe', reason: 'unresolved', renamed: false }]);
  const included = await tug(repo.root, ['rename', 'pkg/core.py:1:5', 'pipe_r', '--verify', 'none', '--include-unsure']);
  t.is(included.exitCode, 0, included.stdout);
  t.deepEqual(included.json.unsure.map((u: { renamed: boolean }) => u.renamed), [true], '--include-unsure renames it with the rest');
  await repo.cleanup();
});

test('a binding elsewhere that keeps the old name for a value made from the renamed symbol is a MirrorKeepsOldName warning (toolz.curried)', async (t) => {
  const repo = await makeRepo({
    'pkg/__init__.py': 'from pkg.core import cons\n',
    'pkg/core.py': 'def cons(x, seq):\n    return [x, *seq]\n',
    'pkg/curried.py': 'import pkg\nfrom functools import partial\n\ncons = partial(pkg.cons)\nother = pkg.cons\n',
  });
  const run = await tug(repo.root, ['rename', 'pkg/core.py:1:5', 'prepend', '--verify', 'none']);
  t.is(run.exitCode, 0, run.stdout);
  const mirrors = run.json.warnings.filter((w: { code: string }) => w.code === 'MirrorKeepsOldName');
  t.deepEqual(mirrors.map((w: { location: { file: string; line: number } }) => `${w.location.file}:${w.location.line}`), ['pkg/curried.py:4'], 'the binding named cons, not other');
  // When the tests then fail (toolz's own test that curried mirrors toolz), the failure carries the warning.
  const failed = await tug(repo.root, ['rename', 'pkg/core.py:1:5', 'prepend', '--verify', 'tests', '--test-command', '["{python}", "-c", "raise SystemExit(1)"]']);
  t.is(failed.json.error.code, 'VerificationFailed');
  t.deepEqual(failed.json.error.details.warnings.filter((w: { code: string }) => w.code === 'MirrorKeepsOldName').length, 1);
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

// Found on lazr.uri (Debian python3-lazr.uri): `replace()` builds the constructor's keywords in a dict and calls
// `self.__class__(**parts)`; renaming a parameter of __init__ said ok with nothing unsure, and the package's tests broke.
test('a parameter rename lists the calls that pass keywords through **mapping, and constructor calls through the instance class', async (t) => {
  const repo = await makeRepo({
    'uri.py': [
      'class URI:',
      '    def __init__(self, scheme=None, host=None):',
      '        self.scheme = scheme',
      '        self.host = host',
      '',
      '    def replace(self, **parts):',
      '        base = dict(scheme=self.scheme, host=self.host)',
      '        base.update(parts)',
      '        return self.__class__(**base)',
      '',
      '    def with_scheme(self, scheme):',
      '        return type(self)(scheme=scheme, host=self.host)',
      '',
      '    @classmethod',
      '    def local(cls):',
      '        return cls(scheme="file")',
      '',
      '',
      'def make(**options):',
      '    return URI(**options)',
      '',
      '',
      'def other(**options):',
      '    return dict(**options)',
      '',
    ].join('\n'),
  });
  // A mapping spread into the call may hold the old name as a key: refused unless the unsure places are accepted.
  const refused = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'uri.py:2:24', '--to', 'protocol', '--json']);
  t.is(refused.json.error?.details?.reason, 'keywords through a mapping', refused.stdout);
  // The message names the parameter as every door spells it (MCP and the library have no --include-unsure flag).
  t.regex(refused.json.error?.message ?? '', /set include_unsure \(CLI --include-unsure\) to rename anyway/);
  const run = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'uri.py:2:24', '--to', 'protocol', '--include-unsure', '--json']);
  t.is(run.exitCode, 0, run.stdout);
  const sites = run.json.unsure.map((u: { line: number; text: string; reason: string }) => `${u.line} ${u.text} ${u.reason}`);
  t.deepEqual(sites, [
    '9 self.__class__(**…) untyped_receiver',
    '12 type()(scheme=…) untyped_receiver',
    '16 cls(scheme=…) untyped_receiver',
    '20 URI(**…) kwargs',
  ]);
  // Listed, never edited: --include-unsure renames the keywords it can name, not a mapping.
  const all = await tug(repo.root, ['rename', 'uri.py:2:24', 'protocol', '--include-unsure', '--verify', 'syntax']);
  t.is(all.exitCode, 0, all.stdout);
  const renamedLines = all.json.unsure.filter((u: { renamed: boolean }) => u.renamed).map((u: { line: number }) => u.line);
  t.deepEqual(renamedLines, [12, 16]);
  for (const edit of all.json.patch.edits) t.is(edit.old_text, 'scheme');
  await repo.cleanup();
});

test('special names are refused: renaming __eq__ or __init__ away, or a method to __len__, would change what the class does', async (t) => {
  const repo = await makeRepo({ 'box.py': 'class Box:\n    def __init__(self):\n        self.n = 0\n\n    def __eq__(self, other):\n        return True\n\n    def size(self):\n        return self.n\n' });
  for (const [at, to] of [['box.py:5:9', 'equals'], ['box.py:2:9', 'setup'], ['box.py:8:9', '__len__']] as const) {
    const run = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', at, '--to', to, '--json']);
    t.is(run.exitCode, 4, `${at} → ${to}: ${run.stdout}`);
    t.is(run.json.error.code, 'UnsafeRefactor');
    t.is(run.json.error.details.reason, 'special name');
  }
  // A parameter of a special method is an ordinary name.
  const param = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'box.py:5:24', '--to', 'that', '--json']);
  t.is(param.exitCode, 0, param.stdout);
  await repo.cleanup();
});
