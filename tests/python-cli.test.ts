// Python renames from the command line: the shortcut, analyze-impact never writing, the facts cache, bad input.
import test from 'ava';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { makeRepo, repoState } from './helpers/repo.js';
import { tug } from './helpers/cli.js';

const SOURCE = {
  'pkg/__init__.py': '',
  'pkg/core.py': 'def process_data(x):\n    return x * 2\n',
  'main.py': 'from pkg.core import process_data\n\nprint(process_data(2))\n',
};

test('analyze-impact lists the symbol and its references and changes nothing', async (t) => {
  const repo = await makeRepo(SOURCE);
  const before = await repoState(repo);
  const run = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'pkg/core.py:1:5', '--to', 'transform_data']);
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.symbol.name, 'process_data');
  t.is(run.json.symbol.kind, 'function');
  t.deepEqual(
    run.json.references.map((r: any) => `${r.location.file}:${r.location.line}:${r.location.col}:${r.kind}`),
    ['main.py:1:22:import', 'main.py:3:7:call', 'pkg/core.py:1:5:definition'],
  );
  t.deepEqual(run.json.impact, { files_affected: 2, references_count: 3, edits_estimated: 3 });
  t.is(await repoState(repo), before);
  await repo.cleanup();
});

test('`tug rename` and `git tug rename` commit on tug/rename/<old>-to-<new>', async (t) => {
  const repo = await makeRepo(SOURCE);
  const run = await tug(repo.root, ['rename', 'pkg/core.py:1:5', 'transform_data', '--apply']);
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.git.branch, 'tug/rename/process_data-to-transform_data');
  t.regex(await repo.git('log', '-1', '--format=%s', run.json.git.commit), /^refactor\(rename\): process_data -> transform_data$/);
  t.is(await repo.readText('main.py'), 'from pkg.core import transform_data\n\nprint(transform_data(2))\n');
  await repo.cleanup();
});

test('a warm facts cache answers without starting Python at all', async (t) => {
  const repo = await makeRepo(SOURCE);
  const cold = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'pkg/core.py:1:5', '--to', 'y']);
  t.is(cold.exitCode, 0, cold.stdout);
  const cached = await readdir(path.join(repo.root, '.git', 'tug', 'facts'), { recursive: true });
  t.is(cached.filter((f) => String(f).endsWith('.jsonl')).length, 1, 'the facts of all three files in one pack');
  const warm = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'pkg/core.py:1:5', '--to', 'y', '--python', '/nonexistent/python']);
  t.is(warm.exitCode, 0, warm.stdout);
  t.deepEqual(warm.json.references, cold.json.references);
  await repo.write('main.py', 'from pkg.core import process_data\nprocess_data(1)\n');
  const changed = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'pkg/core.py:1:5', '--to', 'y', '--python', '/nonexistent/python']);
  t.is(changed.json.error.code, 'PythonNotFound', 'a changed file needs parsing again');
  await repo.cleanup();
});

const BAD: Array<[string, string[], string, number]> = [
  ['not a symbol', ['rename', 'pkg/core.py:2:5', 'y'], 'SymbolNotFound', 3],
  ['a keyword as the new name', ['rename', 'pkg/core.py:1:5', 'class'], 'InvalidArgument', 2],
  ['not an identifier', ['rename', 'pkg/core.py:1:5', '9lives'], 'InvalidArgument', 2],
  ['a position past the end', ['rename', 'pkg/core.py:40:1', 'y'], 'InvalidPosition', 3],
  ['a missing file', ['rename', 'nope.py:1:1', 'y'], 'FileNotFound', 3],
  ['a path outside the workspace', ['rename', '../x.py:1:1', 'y'], 'InvalidArgument', 2],
  ['a malformed --at', ['analyze-impact', 'rename-symbol', '--at', 'pkg/core.py', '--to', 'y'], 'InvalidArgument', 2],
  ['a non-Python file', ['rename', 'README.md:1:1', 'y'], 'UnsupportedOperation', 2],
  ['a name that would collide', ['rename', 'pkg/core.py:1:5', 'print'], 'NameConflict', 4],
];

for (const [name, args, code, exit] of BAD) {
  test(`rename with ${name} → ${code} (exit ${exit}), nothing written`, async (t) => {
    const repo = await makeRepo({ ...SOURCE, 'README.md': '# readme\n' });
    const before = await repoState(repo);
    const run = await tug(repo.root, args);
    t.is(run.json?.error?.code, code, run.stdout);
    t.is(run.exitCode, exit);
    t.is(await repoState(repo), before);
    await repo.cleanup();
  });
}

for (const [how, line] of [['in a string', 'return "process_data"'], ['in code', 'return process_data']]) {
  test(`a file that does not parse and mentions the old name (${how}) is SourceSyntaxError naming the file and line`, async (t) => {
    const repo = await makeRepo({ ...SOURCE, 'broken.py': `def ok():\n    ${line}\n\ndef (:\n` });
    const run = await tug(repo.root, ['rename', 'pkg/core.py:1:5', 'y']);
    t.is(run.json?.error?.code, 'SourceSyntaxError', run.stdout);
    t.is(run.json.error.details.file, 'broken.py');
    t.is(run.json.error.details.line, 4);
    t.is(run.exitCode, 4);
    await repo.cleanup();
  });
}

test('a file that cannot be parsed and never mentions the name is not read: the rename goes on', async (t) => {
  const repo = await makeRepo({ ...SOURCE, 'broken.py': 'def ok():\n    pass\n\ndef (:\n' });
  const run = await tug(repo.root, ['rename', 'pkg/core.py:1:5', 'y']);
  t.is(run.exitCode, 0, run.stdout);
  t.false(run.json.patch.unified_diff.includes('broken.py'));
  t.false(run.json.warnings.some((w: { code: string }) => w.code === 'FileSkipped'), 'a file the rename never read is not reported');
  await repo.cleanup();
});

test('a file the rename reads that does not parse and never mentions the old name is skipped with a warning at its syntax error', async (t) => {
  // It mentions the new name, so the rename reads it (a use of the new name could clash), but not the old one.
  const repo = await makeRepo({ ...SOURCE, 'broken.py': 'def ok():\n    pass  # becomes transform_data\n\ndef (:\n' });
  const run = await tug(repo.root, ['rename', 'pkg/core.py:1:5', 'transform_data', '--verify', 'syntax']);
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(
    run.json.warnings.filter((w: { code: string }) => w.code === 'FileSkipped').map((w: { location: { file: string; line: number } }) => `${w.location.file}:${w.location.line}`),
    ['broken.py:4'],
  );
  t.false(run.json.patch.unified_diff.includes('broken.py'));
  await repo.cleanup();
});

test('renaming a module moves its file, updates every import, applies cleanly and undoes', async (t) => {
  const repo = await makeRepo(SOURCE);
  const before = await repoState(repo);
  const run = await tug(repo.root, ['rename', 'main.py:1:10', 'engine', '--apply']);
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(run.json.patch.file_moves, [{ from: 'pkg/core.py', to: 'pkg/engine.py' }]);
  t.is(await repo.readText('main.py'), 'from pkg.engine import process_data\n\nprint(process_data(2))\n');
  t.is(await repo.git('status', '--porcelain'), ' M main.py\n D pkg/core.py\n?? pkg/engine.py');
  const { execa } = await import('execa');
  const check = await execa('git', ['apply', '--check', '-R', '-'], { cwd: repo.root, input: run.json.patch.unified_diff, reject: false });
  t.is(check.exitCode, 0, `the diff (with its rename) matches the working tree: ${check.stderr}`);
  const undo = await tug(repo.root, ['undo', run.json.undo_token]);
  t.is(undo.exitCode, 0, undo.stdout);
  const { refs: _branchesKeepTheResult, ...after } = JSON.parse(await repoState(repo));
  const { refs: _before, ...expected } = JSON.parse(before);
  t.deepEqual(after, expected, 'index, HEAD, status and files are as before; only the tug/ branch remains');
  await repo.cleanup();
});
