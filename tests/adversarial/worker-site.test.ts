// The Python worker starts without `site`: a .pth file in the interpreter's site-packages (a repository's own .venv
// among them) is code tug never runs, whichever refactor asks the worker. (tests/python-worker.test.ts shows LibCST is
// still found there.)
import test from 'ava';
import { execa } from '../helpers/execa.js';
import { existsSync, readdirSync } from 'node:fs';
import { realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tug } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/repo.js';
import { PythonWorker, WORKER_SCRIPT } from '../../lib/python/worker.js';

const PACKAGE = {
  'app/__init__.py': '',
  'app/calc.py': 'def total(a, b):\n    return (a + b) * 2\n\n\ndef twice(a):\n    return total(a, a)\n',
};

/** A venv in the repository whose site-packages holds a .pth that leaves a mark when Python runs site. */
async function venvWithPth(root: string, marks: string): Promise<string> {
  await execa('python3', ['-m', 'venv', '--without-pip', path.join(root, '.venv')]);
  const lib = path.join(root, '.venv', 'lib');
  const site = path.join(lib, readdirSync(lib).find((name) => name.startsWith('python'))!, 'site-packages');
  await writeFile(path.join(site, 'evil.pth'), `import os; open(${JSON.stringify(path.join(marks, 'ran'))}, "w").write("site ran")\n`);
  return path.join(root, '.venv', 'bin', 'python');
}

test('no refactor runs the .pth files of the chosen interpreter: extract-variable, rename and a bare worker', async (t) => {
  const marks = await realpath(await tempDir('tug-pth-'));
  const repo = await makeRepo(PACKAGE);
  const python = await venvWithPth(repo.root, marks);
  // The venv's interpreter does run the .pth on a plain start: the mark is what site leaves.
  await execa(python, ['-c', 'pass']);
  t.true(existsSync(path.join(marks, 'ran')), 'the plain interpreter ran the .pth (the test is meaningful)');
  await execa('rm', [path.join(marks, 'ran')]);

  const env = { TUG_DAEMON_AUTOSTART: '0' };
  const extract = await tug(repo.root, ['analyze-impact', 'extract-variable', '--range', 'app/calc.py:2:12-2:19', '--name', 'both', '--python', python, '--json'], { env });
  t.is(extract.exitCode, 0, extract.stdout);
  t.regex(JSON.stringify(extract.json.patch.edits), /both = \(?a \+ b/);
  const rename = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'app/calc.py:1:5', '--to', 'sum_twice', '--python', python, '--json'], { env });
  t.is(rename.exitCode, 0, rename.stdout);
  t.false(existsSync(path.join(marks, 'ran')), 'no tug command ran the .pth');

  const worker = await PythonWorker.start({ python, script: WORKER_SCRIPT });
  try {
    t.false(existsSync(path.join(marks, 'ran')), 'the worker started without site');
  } finally {
    await worker.shutdown();
  }
});
