// Python move-symbol on a src-layout package through the real CLI, worker and git: each ok case runs the package's own
// tests in the sandbox; refusals name their code. Goldens in golden/python-move/.
import test from 'ava';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';
import { fixtureRepo } from './helpers/rename-cases.js';
import { checkOpCase, checkPreviewMatchesRun, opManifest } from './helpers/op-cases.js';

const manifest = await opManifest('move_symbol.json');

for (const c of manifest.cases) test(`python move-symbol ${c.name}`, (t) => checkOpCase(t, manifest.workspace, c, 'python-move', ['move-symbol'], { warnings: true, unsure: true }));

test('analyze-impact previews a move with the same patch as the run, and writes nothing', (t) =>
  checkPreviewMatchesRun(t, manifest.workspace, ['move-symbol', '--at', 'src/shop/pricing.py:34:5', '--destination', 'shop.discounts']));

test('`tug move --apply` writes the move; the applied tree compiles and its tests pass', async (t) => {
  const repo = await fixtureRepo('python', manifest.workspace);
  try {
    const run = await tug(repo.root, ['move', '--at', 'src/shop/pricing.py:11:1', '--destination', 'shop.money', '--apply', '--json']);
    t.is(run.exitCode, 0, run.stdout);
    t.true(run.json.applied);
    const money = await readFile(path.join(repo.root, 'src/shop/money.py'), 'utf8');
    t.true(money.includes('# The VAT rate applied to every price.\nTAX_RATE = Decimal("0.20")\n'), money);
    const exec = promisify(execFile);
    await exec('python3', ['-m', 'py_compile', 'src/shop/money.py', 'src/shop/pricing.py', 'src/shop/cart.py'], { cwd: repo.root });
    const tests = await exec('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], { cwd: repo.root });
    t.regex(tests.stdout, /8 passed/);
  } finally {
    await repo.cleanup();
  }
});

// Found on lazr.uri (Debian python3-lazr.uri): its package re-exports the implementation module with a star import,
// which names nothing; moving `merge` said ok with nothing unsure, and `from lazr.uri import merge` then failed.
test('a star import that re-exports the moved name keeps it in the old module even where the file never names it', async (t) => {
  const repo = await makeRepo({
    'pkg/__init__.py': 'from pkg._impl import *\nfrom pkg._impl import __all__\n',
    'pkg/_impl.py': "__all__ = ['merge', 'split']\n\n\ndef merge(a, b):\n    return a + b\n\n\ndef split(s):\n    return s.split()\n\n\ndef spare():\n    return 0\n",
  });
  // Not in __all__, so the star import never brought it: nothing to list.
  const spare = await tug(repo.root, ['analyze-impact', 'move-symbol', '--at', 'pkg/_impl.py:12:5', '--destination', 'pkg.joining', '--json']);
  t.is(spare.exitCode, 0, spare.stdout);
  t.is(spare.json.unsure, undefined);
  const run = await tug(repo.root, ['analyze-impact', 'move-symbol', '--at', 'pkg/_impl.py:4:5', '--destination', 'pkg.joining', '--json']);
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.unsure, undefined);
  t.deepEqual(run.json.warnings.map((w: { code: string }) => w.code), ['ReexportKept'], 'kept, as with --keep-reexport (tests/python-sweep-defects.test.ts)');
  // --keep-reexport keeps it in the old module's __all__, so the star import still brings it.
  const kept = await tug(repo.root, ['analyze-impact', 'move-symbol', '--at', 'pkg/_impl.py:4:5', '--destination', 'pkg.joining', '--keep-reexport', '--json']);
  t.is(kept.exitCode, 0, kept.stdout);
  await repo.cleanup();
});

test("the only name of the old module's __all__, with a comma after it, leaves an empty list or tuple, not `[,]`", async (t) => {
  // fixtures' _fixtures/warnings.py in the sweep: `__all__ = [\n    'WarningsCapture',\n]` became `[\n    ,\n]`.
  for (const [listed, left] of [
    ["[\n    'Capture',\n]", '[\n    \n]'],
    ["('Capture',)", '()'],
    ["['Capture' ,  # the one\n]", '[  # the one\n]'],
  ] as const) {
    const old = `__all__ = ${listed}\n\n\nclass Capture:\n    pass\n`;
    const repo = await makeRepo({ 'pkg/__init__.py': '', 'pkg/old.py': old, 'pkg/use.py': 'from pkg.old import Capture\n\nprint(Capture())\n' });
    const line = old.split('\n').indexOf('class Capture:') + 1;
    const run = await tug(repo.root, ['run', 'move-symbol', '--at', `pkg/old.py:${line}:7`, '--destination', 'pkg.new', '--verify', 'syntax', '--apply', '--json']);
    t.is(run.exitCode, 0, run.stdout.slice(0, 2000));
    t.is(await repo.readText('pkg/old.py'), `__all__ = ${left}\n`, listed);
    await repo.cleanup();
  }
});

test("a module's special names do not move", async (t) => {
  const repo = await makeRepo({ 'pkg/__init__.py': '', 'pkg/core.py': "__all__ = ['f']\n__version__ = '1.0'\n\n\ndef f():\n    return 1\n" });
  for (const at of ['pkg/core.py:1:1', 'pkg/core.py:2:1']) {
    const run = await tug(repo.root, ['analyze-impact', 'move-symbol', '--at', at, '--destination', 'pkg.other', '--json']);
    t.is(run.exitCode, 4, run.stdout);
    t.is(run.json.error.code, 'UnsafeRefactor');
    t.is(run.json.error.details.reason, 'special name');
  }
  await repo.cleanup();
});

test('docs that import the moved name from the old module, or name its dotted path, are listed as unsure', async (t) => {
  const repo = await makeRepo({
    'pkg/__init__.py': '',
    'pkg/a.py': 'def f():\n    return 1\n\n\ndef g():\n    return 2\n',
    'docs/x.rst': 'Guide\n\n   >>> from pkg.a import f\n   >>> f()\n   1\n\nSee pkg.a.f and pkg.a.fg, from pkg.a import g.\n',
  });
  const run = await tug(repo.root, ['analyze-impact', 'move-symbol', '--at', 'pkg/a.py:1:5', '--destination', 'pkg.b', '--json']);
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(run.json.unsure.map((u: { file: string; line: number; col: number; text: string; reason: string }) => `${u.file}:${u.line}:${u.col} ${u.text} ${u.reason}`), [
    'docs/x.rst:3:8 from pkg.a import f string_mention',
    'docs/x.rst:7:5 pkg.a.f string_mention',
  ]);
  t.true(run.json.warnings.some((w: { code: string }) => w.code === 'UnsureReferences'));
  await repo.cleanup();
});

// Issue 28: generated code follows the project's style. The worker adds an import after the last one; a file whose
// imports were sorted as the project sorts them (its ruff/isort settings) stays sorted, relative where it is relative.
test("imports a move adds are sorted and grouped as the project's isort settings say; relative where the module is", async (t) => {
  const repo = await makeRepo({
    'pyproject.toml': '[project]\nname = "shop"\n\n[tool.ruff.lint.isort]\nforce-sort-within-sections = true\n',
    'shop/__init__.py': '',
    'shop/base.py': 'class Base:\n    pass\n',
    'shop/pricing.py': 'import json\nimport re\n\nfrom shop.base import Base\n\n\ndef parse(text):\n    return json.loads(re.sub(",$", "", text))\n\n\ndef price(text):\n    return parse(text), Base\n',
    // Sorted under force-sort-within-sections (not under isort's defaults): `from decimal` before `import os`.
    'shop/money.py': 'from decimal import Decimal\nimport os\n\n\ndef zero():\n    return Decimal(0), os.sep\n',
    'shop/cart.py': 'from .base import Base\n\n\ndef empty():\n    return Base\n',
    'shop/legacy.py': 'import sys\nimport os\n\n\ndef where():\n    return os.sep, sys.platform\n',
  });
  try {
    const sorted = await tug(repo.root, ['analyze-impact', 'move-symbol', '--at', 'shop/pricing.py:7:5', '--destination', 'shop.money', '--json']);
    t.is(sorted.exitCode, 0, sorted.stdout);
    t.true(sorted.json.patch.unified_diff.includes(' from decimal import Decimal\n+import json\n import os\n+import re\n'), sorted.json.patch.unified_diff);
    // cart.py imports its package relatively: the import of what the moved function reads from pricing is relative too.
    const relative = await tug(repo.root, ['analyze-impact', 'move-symbol', '--at', 'shop/pricing.py:11:5', '--destination', 'shop.cart', '--json']);
    t.is(relative.exitCode, 0, relative.stdout);
    t.true(relative.json.patch.unified_diff.includes(' from .base import Base\n+from .pricing import parse\n'), relative.json.patch.unified_diff);
    // legacy.py was not sorted: tug does not reorder imports nobody asked it to; the new one goes after the last.
    const unsorted = await tug(repo.root, ['analyze-impact', 'move-symbol', '--at', 'shop/pricing.py:7:5', '--destination', 'shop.legacy', '--json']);
    t.is(unsorted.exitCode, 0, unsorted.stdout);
    t.true(unsorted.json.patch.unified_diff.includes(' import sys\n import os\n+import json\n+import re\n'), unsorted.json.patch.unified_diff);
    // The run verifies and commits what analyze-impact showed.
    const run = await tug(repo.root, ['move', '--at', 'shop/pricing.py:7:5', '--destination', 'shop.money', '--verify', 'syntax', '--json']);
    t.is(run.exitCode, 0, run.stdout);
    t.is(run.json.patch.unified_diff, sorted.json.patch.unified_diff);
  } finally {
    await repo.cleanup();
  }
});

test('a module a move creates gets its imports sorted, and relative when the module it leaves imports relatively', async (t) => {
  const repo = await makeRepo({
    'shop/__init__.py': '',
    'shop/base.py': 'class Base:\n    pass\n',
    'shop/pricing.py': 'import re\nimport json\n\nfrom .base import Base\n\n\ndef parse(text):\n    return json.loads(re.sub(",$", "", text)), Base\n\n\ndef price(text):\n    return parse(text)\n',
  });
  try {
    const run = await tug(repo.root, ['analyze-impact', 'move-symbol', '--at', 'shop/pricing.py:7:5', '--destination', 'shop.parsing', '--json']);
    t.is(run.exitCode, 0, run.stdout);
    t.true(run.json.patch.unified_diff.includes('+import json\n+import re\n+\n+from .base import Base\n+\n+\n+def parse(text):'), run.json.patch.unified_diff);
  } finally {
    await repo.cleanup();
  }
});

// Found by the sweep on colorama (Debian python3-colorama): reset_all reads orig_stdout, which init() and a reset helper
// rebind with `global`; the move said ok, and the moved function raised NameError (nothing bound it at import time).
test('a function that reads a global the module rebinds at run time does not move', async (t) => {
  const state = [
    'import sys\n\n\ndef _wipe():\n    global orig_stdout\n    orig_stdout = None\n\n\n',
    'def reset_all():\n    print("reset", orig_stdout)\n\n\n',
    'def init():\n    global orig_stdout\n    orig_stdout = sys.stdout\n\n\n_wipe()\n',
  ].join('');
  // The same with a top-level binding: importing it would copy the value init() later replaces.
  const bound = state.replace('import sys\n', 'import sys\n\norig_stdout = None\n');
  for (const source of [state, bound]) {
    const repo = await makeRepo({ 'pkg/__init__.py': '', 'pkg/initialise.py': source });
    const line = source.split('\n').findIndex((l) => l.startsWith('def reset_all')) + 1;
    const run = await tug(repo.root, ['analyze-impact', 'move-symbol', '--at', `pkg/initialise.py:${line}:5`, '--destination', 'pkg.moved', '--json']);
    t.is(run.exitCode, 4, run.stdout);
    t.is(run.json.error.code, 'UnsafeRefactor');
    t.is(run.json.error.details.reason, 'global rebound at run time');
    t.is(run.json.error.details.name, 'orig_stdout');
    await repo.cleanup();
  }
  // A global nothing rebinds still moves (imported from the old module).
  const repo = await makeRepo({ 'pkg/__init__.py': '', 'pkg/consts.py': 'LIMIT = 3\n\n\ndef limit():\n    return LIMIT\n' });
  const run = await tug(repo.root, ['analyze-impact', 'move-symbol', '--at', 'pkg/consts.py:4:5', '--destination', 'pkg.moved', '--json']);
  t.is(run.exitCode, 0, run.stdout);
  await repo.cleanup();
});

// Found by the sweep on colorama (Debian python3-colorama): winterm reads `win32.STDERR`, and its tests patch
// `colorama.winterm.win32` with a mock and compare the calls with `mockWin32.STDERR`; moving STDERR out of win32 made
// winterm read the real constant (verification caught it: call(-12, 0) != call(<MagicMock win32.STDERR>, 0)).
test('a constant read through a module that a test replaces with a mock does not move', async (t) => {
  const files = {
    'pkg/__init__.py': '',
    'pkg/win32.py': 'STDOUT = -11\nSTDERR = -12\n\n\ndef set_attr(handle, attrs):\n    return (handle, attrs)\n\n\ndef handle_name(handle):\n    return {STDOUT: "stdout", STDERR: "stderr"}[handle]\n',
    'pkg/winterm.py': 'from . import win32\n\n\ndef set_console(attrs, on_stderr=False):\n    handle = win32.STDERR if on_stderr else win32.STDOUT\n    return win32.set_attr(handle, attrs)\n',
    'pkg/test_winterm.py': "from unittest.mock import patch\n\nfrom pkg.winterm import set_console\n\n\n@patch('pkg.winterm.win32')\ndef test_on_stderr(mock_win32):\n    set_console(7, on_stderr=True)\n    mock_win32.set_attr.assert_called_once_with(mock_win32.STDERR, 7)\n",
  };
  const repo = await makeRepo(files);
  const run = await tug(repo.root, ['run', 'move-symbol', '--at', 'pkg/win32.py:2:1', '--destination', 'pkg.consts', '--verify', 'tests', '--test-command', '["{python}","-m","pytest","-q","-p","no:cacheprovider","-p","no:hypothesispytest","-p","no:benchmark"]', '--json']);
  t.is(run.json.error?.code, 'UnsafeRefactor', run.stdout);
  t.is(run.exitCode, 4);
  t.like(run.json.error.details, { reason: 'module patched in tests', use: 'pkg/winterm.py:5:14', target: 'pkg.winterm.win32' });
  // A function nothing reads through the mocked name moves, and the tests pass on the result.
  const other = await tug(repo.root, ['run', 'move-symbol', '--at', 'pkg/win32.py:9:5', '--destination', 'pkg.consts', '--verify', 'tests', '--test-command', '["{python}","-m","pytest","-q","-p","no:cacheprovider","-p","no:hypothesispytest","-p","no:benchmark"]', '--json']);
  t.is(other.json.error?.code, undefined, other.stdout);
  t.is(other.json.verification.status, 'passed');
  await repo.cleanup();
});
