// Edits that land inside an f-string's replacement field follow the target Python (requires-python, else the
// interpreter): before 3.12 a field may not reuse its f-string's quote. Found on a real CLI package: inlining
// `slug` into `f"~/.{slug(name)}"` wrote `f"~/.{"-".join(name.split()).lower()}"`, a SyntaxError on 3.11.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';

const pyproject = (requires: string) => `[project]\nname = "dotdir"\nversion = "0.1"\nrequires-python = "${requires}"\n`;

const paths = [
  'def slug(name):',
  '    return "-".join(name.split()).lower()',
  '',
  '',
  'def config_dir(name):',
  '    return f"~/.{slug(name)}"',
  '',
  '',
  'def cache_dir(name):',
  '    return f\'~/.cache/{slug(name)}\'',
  '',
].join('\n');

const testPaths = [
  'from dotdir.paths import cache_dir, config_dir',
  '',
  '',
  'def test_dirs():',
  '    assert config_dir("My Tool") == "~/.my-tool"',
  '    assert cache_dir("My Tool") == "~/.cache/my-tool"',
  '',
].join('\n');

async function inline(files: Record<string, string>, at: string) {
  const repo = await makeRepo(files);
  const run = await tug(repo.root, ['run', 'inline', '--at', at, '--verify', 'tests', '--json']);
  const show = async (file: string) => (run.json?.git?.branch ? `${await repo.git('show', `${run.json.git.branch}:${file}`)}\n` : '');
  return { repo, run, show };
}

test('inlining a function whose body has a string into f-strings switches its quotes for a 3.11 project, and the tests pass', async (t) => {
  const { repo, run, show } = await inline({ 'pyproject.toml': pyproject('>=3.11'), 'dotdir/__init__.py': '', 'dotdir/paths.py': paths, 'tests/test_paths.py': testPaths }, 'dotdir/paths.py:1:5');
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification.status, 'passed', JSON.stringify(run.json.verification));
  const text = await show('dotdir/paths.py');
  t.true(text.includes(`return f"~/.{'-'.join(name.split()).lower()}"`), text);
  t.true(text.includes(`return f'~/.cache/{"-".join(name.split()).lower()}'`), text);
  await repo.cleanup();
});

test('a value that needs a backslash inside the f-string is refused for a 3.11 project, naming the place and the target', async (t) => {
  const lines = ['def joined(parts):', '    return "\\n".join(parts)', '', '', 'def report(parts):', '    return f"report:{joined(parts)}"', ''].join('\n');
  const { repo, run } = await inline({ 'pyproject.toml': pyproject('>=3.11,<4'), 'rep.py': lines }, 'rep.py:1:5');
  t.is(run.json?.error?.code, 'UnsafeRefactor', run.stdout);
  t.is(run.json.error.details.reason, 'f-string before Python 3.12');
  t.is(run.json.error.details.target_python, '3.11');
  t.regex(run.json.error.message, /rep\.py:6:/);
  t.is(await repo.git('status', '--porcelain'), '');
  await repo.cleanup();
});

test('inlining a local whose value has quotes into an f-string switches them (it was refused before)', async (t) => {
  const lines = ['def heading(words):', '    sep = " | "', '    return f"[{sep.join(words)}]"', ''].join('\n');
  const check = ['from fmt import heading', '', '', 'def test_heading():', '    assert heading(["a", "b"]) == "[a | b]"', ''].join('\n');
  const { repo, run, show } = await inline({ 'pyproject.toml': pyproject('>=3.9'), 'fmt.py': lines, 'test_fmt.py': check }, 'fmt.py:2:5');
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification.status, 'passed', JSON.stringify(run.json.verification));
  t.true((await show('fmt.py')).includes(`return f"[{' | '.join(words)}]"`));
  await repo.cleanup();
});

// `f"{total=}"` prints `total=` and the value: replacing the text inside such a field changes the output.
test('inline and extract-variable refuse to edit inside a self-documenting f-string field (`{x=}`)', async (t) => {
  const lines = ['def debug(a, b):', '    total = a + b', '    return f"{total=} {a * b=}"', ''].join('\n');
  const repo = await makeRepo({ 'dbg.py': lines });
  const inlined = await tug(repo.root, ['run', 'inline', '--at', 'dbg.py:2:5', '--verify', 'none', '--json']);
  t.is(inlined.json?.error?.code, 'UnsafeRefactor', inlined.stdout);
  t.is(inlined.json.error.details.reason, 'self-documenting f-string field');
  const extracted = await tug(repo.root, ['run', 'extract-variable', '--range', 'dbg.py:3:24-3:29', '--name', 'product', '--verify', 'none', '--json']);
  t.is(extracted.json?.error?.code, 'UnsafeRefactor', extracted.stdout);
  t.regex(extracted.json.error.details.reason, /ending in `=`/);
  t.is(await repo.git('branch', '--list', 'tug/*'), '');
  await repo.cleanup();
});
