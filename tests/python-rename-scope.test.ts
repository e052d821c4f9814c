// Where tug is started never narrows what it analyses: `cd pkg && tug rename …` and `-C pkg` once named `pkg/core.py`
// module `core`, so every `from pkg.core import …` elsewhere in the repository was dropped without a word and the
// partial rename was committed as verified (issue 28 §2). The same for the other operations that read the project.
import test from 'ava';
import path from 'node:path';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';

const FILES = {
  'pyproject.toml': '[project]\nname = "headers"\nversion = "0.1"\n\n[tool.tug]\nexclude = ["vendor/**"]\n',
  'pkg/__init__.py': 'from .core import parse_header\n\n__all__ = ["parse_header"]\n',
  'pkg/core.py': [
    'def parse_header(line, sep=":"):',
    '    name, _, value = line.partition(sep)',
    '    return name.strip().lower(), value.strip()',
    '',
    '',
    'def parse_block(text):',
    '    return dict(parse_header(line) for line in text.splitlines() if line)',
    '',
    '',
    'def header_key(name):',
    '    return name.strip().lower()',
    '',
  ].join('\n'),
  'app.py': 'import pkg.core\n\n\ndef main(raw):\n    return pkg.core.parse_header(raw, sep="=")\n\n\ndef key(raw):\n    return pkg.core.header_key(raw)\n',
  'tests/test_core.py': 'from pkg.core import parse_header\n\n\ndef test_parse():\n    assert parse_header("A: b") == ("a", "b")\n',
  'tools/report.py': 'from pkg import parse_header\n\nprint(parse_header("X: y"))\n',
  // Left out by the repository's [tool.tug] exclude, from wherever tug is started.
  'vendor/old.py': 'from pkg.core import parse_header\n',
};

const env = { TUG_NO_DAEMON: '1' };

function files(json: any): string[] {
  return [...new Set<string>(json.patch.edits.map((e: any) => e.file))].sort();
}

test('a rename started in a subdirectory or with -C analyses the whole repository', async (t) => {
  const repo = await makeRepo(FILES);
  const pkg = path.join(repo.root, 'pkg');
  const fromRoot = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'pkg/core.py:1:5', '--to', 'split_header'], { env });
  t.is(fromRoot.exitCode, 0, fromRoot.stdout);
  const inside = await tug(pkg, ['analyze-impact', 'rename-symbol', '--at', 'core.py:1:5', '--to', 'split_header'], { env });
  const withC = await tug(repo.root, ['-C', 'pkg', 'analyze-impact', 'rename-symbol', '--at', 'core.py:1:5', '--to', 'split_header'], { env });
  t.deepEqual(inside.json, fromRoot.json, 'cd pkg = the repository root');
  t.deepEqual(withC.json, fromRoot.json, '-C pkg = the repository root');
  const referenced = [...new Set<string>(fromRoot.json.references.map((r: any) => r.location.file))].sort();
  t.deepEqual(referenced, ['app.py', 'pkg/__init__.py', 'pkg/core.py', 'tests/test_core.py', 'tools/report.py']);

  const run = await tug(pkg, ['rename', 'core.py:1:5', 'split_header'], { env });
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(files(run.json), ['app.py', 'pkg/__init__.py', 'pkg/core.py', 'tests/test_core.py', 'tools/report.py']);
  const shown = await repo.git('show', `${run.json.git.branch}:tests/test_core.py`);
  t.true(shown.startsWith('from pkg.core import split_header\n'), shown);
  t.is(await repo.git('show', `${run.json.git.branch}:vendor/old.py`), 'from pkg.core import parse_header', 'the root config excludes vendor/');
  await repo.cleanup();
});

test('move-symbol, change-signature and inline started in a subdirectory reach the whole repository', async (t) => {
  const repo = await makeRepo(FILES);
  const pkg = path.join(repo.root, 'pkg');
  const preview = async (cwd: string, args: string[]) => {
    const run = await tug(cwd, ['analyze-impact', ...args], { env });
    t.is(run.exitCode, 0, run.stdout);
    return run.json;
  };
  const move = ['move-symbol', '--destination', 'pkg.headers'];
  const moved = await preview(pkg, [...move, '--at', 'core.py:1:5']);
  t.deepEqual(moved, await preview(repo.root, [...move, '--at', 'pkg/core.py:1:5']));
  t.true(files(moved).includes('tests/test_core.py') && files(moved).includes('app.py'), JSON.stringify(files(moved)));

  const signature = ['change-signature', '--params', '[{"name": "line"}, {"name": "separator", "from": "sep", "default": "\\":\\""}]'];
  const signed = await preview(pkg, [...signature, '--at', 'core.py:1:5']);
  t.deepEqual(signed, await preview(repo.root, [...signature, '--at', 'pkg/core.py:1:5']));
  t.true(files(signed).includes('app.py'), JSON.stringify(signed.patch));

  const inlined = await preview(pkg, ['inline', '--at', 'core.py:10:5']);
  t.deepEqual(inlined, await preview(repo.root, ['inline', '--at', 'pkg/core.py:10:5']));
  t.true(files(inlined).includes('app.py'), JSON.stringify(inlined.patch));
  await repo.cleanup();
});

test('organize-imports --all started in a subdirectory organizes the whole repository', async (t) => {
  const unsorted = 'import sys\nimport os\n\nprint(os, sys)\n';
  const repo = await makeRepo({ 'app.py': unsorted, 'pkg/__init__.py': '', 'pkg/mod.py': unsorted });
  const run = await tug(path.join(repo.root, 'pkg'), ['analyze-impact', 'organize-imports', '--all'], { env });
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(files(run.json), ['app.py', 'pkg/mod.py']);
  await repo.cleanup();
});
