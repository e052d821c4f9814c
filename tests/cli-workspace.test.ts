// `-C DIR` works as with git: tug behaves as if started in DIR, so positions, --file and --session-dir are relative
// to it, whether DIR is the repository root or a directory inside it, and wherever tug was started.
import test from 'ava';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { patchset, tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';

// -C moves where relative paths start, never the analysis: pkg/a.py is module pkg.a from anywhere (python-rename-scope.test.ts).
const FILES = { 'pkg/a.py': 'def f():\n    return 1\n', 'pkg/b.py': 'from pkg.a import f\n\nf()\n', 'top.py': 'x = 1\n' };

test('positions are relative to -C DIR (a subdirectory) or to the current directory, as with git', async (t) => {
  const repo = await makeRepo(FILES);
  const pkg = path.join(repo.root, 'pkg');
  const fromRoot = await tug(repo.root, ['-C', 'pkg', 'analyze-impact', 'rename-symbol', '--at', 'a.py:1:5', '--to', 'g']);
  t.is(fromRoot.exitCode, 0, fromRoot.stdout);
  t.is(fromRoot.json.symbol.location.file, 'pkg/a.py');
  t.is(fromRoot.json.impact.references_count, 3);
  const inside = await tug(pkg, ['analyze-impact', 'rename-symbol', '--at', 'a.py:1:5', '--to', 'g']);
  t.deepEqual(inside.json, fromRoot.json, 'started in pkg/ = -C pkg');
  const elsewhere = await tug(os.tmpdir(), ['-C', pkg, 'analyze-impact', 'rename-symbol', '--at', 'a.py:1:5', '--to', 'g']);
  t.deepEqual(elsewhere.json, fromRoot.json);
  const wrong = await tug(repo.root, ['-C', 'pkg', 'analyze-impact', 'rename-symbol', '--at', 'pkg/a.py:1:5', '--to', 'g']);
  t.is(wrong.json.error.code, 'FileNotFound', 'pkg/a.py from inside pkg/ is pkg/pkg/a.py');
  await repo.cleanup();
});

test('-C DIR: --file and --session-dir are relative to DIR too', async (t) => {
  const repo = await makeRepo(FILES);
  const pkg = path.join(repo.root, 'pkg');
  await writeFile(path.join(pkg, 'edits.json'), patchset([{ file: 'a.py', line: 2, col: 12, old_text: '1', new_text: '2' }]));
  const outside = await mkdtemp(path.join(os.tmpdir(), 'tug-c-session-'));
  const session = path.relative(pkg, outside);
  const run = await tug(repo.root, ['-C', 'pkg', 'apply-patchset', '--file', 'edits.json', '--session-dir', session, '--apply']);
  t.is(run.exitCode, 0, run.stdout);
  t.is(await repo.readText('pkg/a.py'), 'def f():\n    return 2\n');
  const status = await tug(os.tmpdir(), ['-C', pkg, 'session', 'status', '--session-dir', session]);
  t.is(status.json.session.path, outside);
  await repo.cleanup();
});
