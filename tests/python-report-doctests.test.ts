// Doctest examples: what counts as one, which docs files pytest's config runs, and examples tug cannot parse.
import test from 'ava';
import { doctestGlobs, doctestText, realOffset } from '../lib/python/doctest-text.js';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';

test('examples become one text with offsets back into the file; `...` only continues an example', (t) => {
  const source = 'x = 1\n...\n    >>> for i in f():\n    ...     g(i)\n    out\n    ... not code\n';
  const doc = doctestText('a.py', Buffer.from(source), 'from a import (f, g)\n')!;
  t.is(doc.text, 'from a import (f, g)\nfor i in f():\n    g(i)\n');
  const at = doc.text.indexOf('g(i)');
  t.is(realOffset(doc, at), source.indexOf('g(i)'));
  t.is(realOffset(doc, 3), null, 'the prefix is not the file');
  t.is(doctestText('b.md', Buffer.from('no examples here\n')), null);
});

test('doctest globs come from addopts; without any, pytest runs test*.txt', (t) => {
  t.deepEqual(doctestGlobs(['[tool.pytest.ini_options]\naddopts = "--doctest-modules --doctest-glob=*.md --doctest-glob \'*.rst\'"\n']), ['*.md', '*.rst']);
  t.deepEqual(doctestGlobs(['[pytest]\naddopts = -q\n']), ['test*.txt']);
});

test('examples in Markdown and reStructuredText follow the rename whether or not pytest collects them, plain text only when it does; examples that do not parse are reported', async (t) => {
  const repo = await makeRepo({
    'pytest.ini': '[pytest]\naddopts = --doctest-glob=*.md\n',
    'calc.py': 'def add(a, b):\n    """\n    >>> add(1,\n    """\n    return a + b\n',
    'README.md': '>>> from calc import add\n>>> add(1, 2)\n3\n',
    // Run by a test's own loader (lazr.uri's docs are), or by Sphinx: pytest's globs do not say.
    'NOTES.rst': '>>> from calc import add\n',
    'notes.txt': '>>> from calc import add\n',
  });
  const run = await tug(repo.root, ['rename', 'calc.py:1:5', 'plus', '--verify', 'syntax']);
  t.is(run.exitCode, 0, run.stdout);
  const files = [...new Set(run.json.patch.edits.map((e: { file: string }) => e.file))];
  t.deepEqual(files, ['NOTES.rst', 'README.md', 'calc.py']);
  t.deepEqual(run.json.warnings.map((w: { code: string; location: { file: string } }) => `${w.code} ${w.location.file}`), ['DoctestSkipped calc.py']);
  await repo.cleanup();
});

test('Python code blocks of Markdown and reStructuredText are code; blocks with prompts are not', async (t) => {
  const { codeBlockText } = await import('../lib/python/doctest-text.js');
  const md = 'Intro\n\n```python\nimport a\na.f()\n```\n\n```python\n>>> a.f()\n```\n\n```bash\nf\n```\n';
  t.is(codeBlockText('x.md', Buffer.from(md))!.text, 'import a\na.f()\n');
  const rst = 'Title\n\n.. code-block:: python\n   :linenos:\n\n    import a\n    if a:\n        a.f()\n\nAfter\n';
  const doc = codeBlockText('x.rst', Buffer.from(rst))!;
  t.is(doc.text.trim(), 'import a\nif a:\n    a.f()');
  t.is(rst.slice(doc.lines.find((l) => l.length > 0)!.real, doc.lines.find((l) => l.length > 0)!.real + 8), 'import a');
});

// Found on wadllib (Debian python3-wadllib): its .rst docs call methods on objects the examples build, which tug cannot
// type; renaming such a method said ok with nothing unsure, and the docs' doctests broke.
test('an example calling the method on an untyped receiver is listed as unsure, as it would be in code', async (t) => {
  const repo = await makeRepo({
    // A factory that looks its class up at run time: tug cannot say what connect() returns.
    'svc.py': 'class Service:\n    def fetch(self):\n        return 1\n\n\n_KINDS = {"svc": Service}\n\n\ndef connect():\n    return _KINDS["svc"]()\n',
    'docs/guide.rst': 'Usage\n\n   >>> from svc import connect\n   >>> root = connect()\n   >>> root.fetch()\n   1\n',
  });
  const run = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'svc.py:2:9', '--to', 'get', '--json']);
  t.is(run.exitCode, 0, run.stdout);
  const unsure = (run.json.unsure ?? []).map((u: { file: string; line: number; text: string; reason: string }) => `${u.file}:${u.line} ${u.text} ${u.reason}`);
  t.deepEqual(unsure, ['docs/guide.rst:5 root.fetch untyped_receiver']);
  await repo.cleanup();
});

// Also wadllib: an example's expected output shows the class by its dotted path, as its repr does.
test("the docs' text that names the symbol by its dotted path follows the rename (expected output, cross-references)", async (t) => {
  const repo = await makeRepo({
    'pkg/__init__.py': '',
    'pkg/svc.py': 'class Service:\n    pass\n',
    'docs/guide.rst': 'See :class:`pkg.svc.Service`.\n\n   >>> from pkg.svc import Service\n   >>> Service\n   <class \'pkg.svc.Service\'>\n\nNot pkg.svc.ServiceError, nor other.Service.\n',
  });
  const run = await tug(repo.root, ['rename', 'pkg/svc.py:1:7', 'Backend', '--verify', 'syntax']);
  t.is(run.exitCode, 0, run.stdout);
  t.is(await repo.readText('docs/guide.rst'), 'See :class:`pkg.svc.Service`.\n\n   >>> from pkg.svc import Service\n   >>> Service\n   <class \'pkg.svc.Service\'>\n\nNot pkg.svc.ServiceError, nor other.Service.\n', 'the working tree is untouched without --apply');
  const guide = run.json.patch.edits.filter((e: { file: string }) => e.file === 'docs/guide.rst').map((e: { line: number; col: number }) => `${e.line}:${e.col}`);
  t.deepEqual(guide, ['1:21', '3:28', '4:8', '5:20']);
  t.is(run.json.warnings.filter((w: { code: string }) => w.code === 'DottedPathRenamed').length, 2);
  await repo.cleanup();
});

// wadllib's docs build their objects through a helper defined in an example (`def application_for(…): return
// Application(…)`): the receivers were untyped, so a method rename left them unsure and its tests red (issue 28 §3).
test('a receiver made by an unannotated factory that returns a new instance is typed, in examples and in code', async (t) => {
  const repo = await makeRepo({
    'wl/__init__.py': '',
    'wl/app.py': 'class Application:\n    def __init__(self, url):\n        self.url = url\n\n    def get_resource_by_path(self, path):\n        return self.url + path\n\n\ndef make(url):\n    if not url:\n        return Application("/")\n    return Application(url)\n\n\ndef root():\n    return make("x").get_resource_by_path("")\n',
    'docs/index.rst': 'Usage\n=====\n\n    >>> from wl.app import Application\n    >>> def application_for(name, url="http://example.com/"):\n    ...     return Application(url + name)\n    >>> links = application_for("links")\n    >>> links.get_resource_by_path("")\n    \'http://example.com/links\'\n',
  });
  const run = await tug(repo.root, ['run', 'rename-symbol', '--at', 'wl/app.py:5:9', '--to', 'resource_at', '--verify', 'syntax'], { env: { TUG_NO_DAEMON: '1' } });
  t.is(run.exitCode, 0, run.stdout);
  const branch = run.json.git.branch;
  t.true((await repo.git('show', `${branch}:docs/index.rst`)).includes('>>> links.resource_at("")'));
  t.true((await repo.git('show', `${branch}:wl/app.py`)).includes('return make("x").resource_at("")'));
  t.deepEqual(run.json.unsure ?? [], []);
  await repo.cleanup();
});
