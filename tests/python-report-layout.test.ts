// A real package layout (src/, re-exporting __init__ with __all__ and a star import, a .pyi stub, doctests in docstrings,
// README.md and docs/*.rst run by pytest's own config): each public rename leaves the package's own test suite green.
import test from 'ava';
import { execa } from './helpers/execa.js';
import { tug } from './helpers/cli.js';
import { fixtureRepo } from './helpers/rename-cases.js';

const PYTEST = ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'];
const TEST_COMMAND = JSON.stringify(['{python}', ...PYTEST]);

async function pytest(cwd: string) {
  return execa('python3', PYTEST, { cwd, reject: false, env: { PYTHONDONTWRITEBYTECODE: '1' } });
}

const RENAMES = [
  { what: 'a re-exported function (package attribute, from-import, __all__, stub, doctests in a docstring and README.md, an .rst code block)', at: 'src/textkit/core.py:5:5', to: 'make_slug', files: ['README.md', 'docs/usage.rst', 'examples/demo.py', 'src/textkit/__init__.py', 'src/textkit/__init__.pyi', 'src/textkit/core.py', 'src/textkit/core.pyi', 'tests/test_textkit.py'] },
  { what: 'a parameter (keywords through the package, in the stub and in doctests)', at: 'src/textkit/core.py:5:20', to: 'separator', files: ['README.md', 'src/textkit/core.py', 'src/textkit/core.pyi', 'tests/test_textkit.py'] },
  { what: 'a method (typed receivers in tests, the stub, docstring and .rst doctests, a README code block)', at: 'src/textkit/core.py:30:9', to: 'increment', files: ['README.md', 'docs/usage.rst', 'src/textkit/core.py', 'src/textkit/core.pyi', 'tests/test_textkit.py'] },
  { what: 'a function re-exported by a star import and listed in two __all__', at: 'src/textkit/formats.py:6:5', to: 'titlecase', files: ['docs/usage.rst', 'src/textkit/__init__.py', 'src/textkit/__init__.pyi', 'src/textkit/formats.py', 'tests/test_textkit.py'] },
];

for (const rename of RENAMES) {
  test(`layout_public: ${rename.what} → the package's tests and doctests still pass`, async (t) => {
    const repo = await fixtureRepo('python', 'layout_public');
    const before = await pytest(repo.root);
    t.is(before.exitCode, 0, `the fixture's own suite passes first\n${before.stdout}`);
    await repo.git('clean', '-fdxq');
    const run = await tug(repo.root, ['rename', rename.at, rename.to, '--verify', 'tests', '--test-command', TEST_COMMAND, '--apply']);
    t.is(run.exitCode, 0, run.stdout);
    t.is(run.json.verification.status, 'passed');
    t.deepEqual([...new Set(run.json.patch.edits.map((e: { file: string }) => e.file))].sort(), rename.files);
    t.is(run.json.unsure, undefined, 'everything was proven');
    const after = await pytest(repo.root);
    t.is(after.exitCode, 0, after.stdout);
    t.regex(after.stdout, /8 passed/);
    await repo.cleanup();
  });
}

test('layout_public: a doctest tug did not rename fails verification, so nothing is committed', async (t) => {
  const repo = await fixtureRepo('python', 'layout_public');
  // The docs page is not in the doctest globs tug reads, but this test command runs it anyway.
  const command = JSON.stringify(['{python}', ...PYTEST, '--doctest-glob=*.text', 'docs/notes.text']);
  await repo.write('docs/notes.text', '>>> from textkit import to_title\n>>> to_title("a")\n\'A\'\n');
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'notes');
  const run = await tug(repo.root, ['rename', 'src/textkit/formats.py:6:5', 'titlecase', '--verify', 'tests', '--test-command', command]);
  t.is(run.exitCode, 5, run.stdout);
  t.is(run.json.error.code, 'VerificationFailed');
  t.is(await repo.git('branch', '--list', 'tug/*'), '');
  await repo.cleanup();
});

test('layout_public: without --keep-alias the public name changes everywhere and no import becomes `new as old`', async (t) => {
  const repo = await fixtureRepo('python', 'layout_public');
  const run = await tug(repo.root, ['rename', 'src/textkit/core.py:5:5', 'make_slug', '--verify', 'syntax', '--apply']);
  t.is(run.exitCode, 0, run.stdout);
  const init = await repo.readText('src/textkit/__init__.py');
  t.regex(init, /^from \.core import Counter, make_slug$/m);
  t.notRegex(init, / as /);
  t.false(run.json.warnings.some((w: { code: string }) => w.code === 'AliasKept'));
  const old = await execa('python3', ['-c', 'import textkit; textkit.slugify'], { cwd: `${repo.root}/src`, reject: false });
  t.not(old.exitCode, 0, 'the old public name is gone');
  await repo.cleanup();
});

test('layout_public: --keep-alias keeps the old function and method names working, says so, and the suite passes', async (t) => {
  const repo = await fixtureRepo('python', 'layout_public');
  const fn = await tug(repo.root, ['rename', 'src/textkit/core.py:5:5', 'make_slug', '--keep-alias', '--verify', 'syntax', '--apply']);
  t.is(fn.exitCode, 0, fn.stdout);
  t.deepEqual(
    fn.json.warnings.filter((w: { code: string }) => w.code === 'AliasKept').map((w: { location: { file: string } }) => w.location.file),
    ['src/textkit/__init__.py', 'src/textkit/__init__.pyi', 'src/textkit/core.py', 'src/textkit/core.pyi'],
    'the defining module, the re-exporting package and their stubs; not the modules that only use it',
  );
  t.regex(await repo.readText('src/textkit/__init__.py'), /__all__ = \["Counter", "make_slug", "slugify", "to_title"\]/);
  const method = await tug(repo.root, ['rename', 'src/textkit/core.py:30:9', 'increment', '--keep-alias', '--verify', 'syntax', '--apply']);
  t.is(method.exitCode, 0, method.stdout);
  const old = await execa('python3', ['-c', 'import textkit; from textkit import *; print(slugify("A B"), textkit.Counter().add("x y"))'], { cwd: `${repo.root}/src`, reject: false });
  t.is(old.stdout, 'a-b 2', old.stderr);
  const after = await pytest(repo.root);
  t.is(after.exitCode, 0, after.stdout);
  await repo.cleanup();
});
