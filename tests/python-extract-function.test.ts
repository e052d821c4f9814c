// Python extract-function on a realistic package through the real CLI, worker and git: each ok case runs the package's
// own tests in the sandbox and the patch is checked against its golden; refusals name their code and place.
import test from 'ava';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { tug } from './helpers/cli.js';
import { fixtureRepo } from './helpers/rename-cases.js';
import { checkOpCase, checkPreviewMatchesRun, opManifest } from './helpers/op-cases.js';

const manifest = await opManifest('extract_function.json');

for (const c of manifest.cases) test(`python ${c.name}`, (t) => checkOpCase(t, manifest.workspace, c, 'python-ops'));

test('analyze-impact shows a Python extract-function patch equal to the run\'s, the same each time, and writes nothing', (t) =>
  checkPreviewMatchesRun(t, manifest.workspace, ['extract-function', '--range', 'src/ledger/report.py:12:5-14:22', '--name', 'after_tax']));

test('the shorthand `tug extract-function --apply` writes a method that the file then calls through self', async (t) => {
  const repo = await fixtureRepo('python', manifest.workspace);
  try {
    const run = await tug(repo.root, ['extract-function', '--range', 'src/ledger/accounts.py:13:9-15:33', '--name', 'record', '--apply', '--json']);
    t.is(run.exitCode, 0, run.stdout);
    const text = await readFile(path.join(repo.root, 'src/ledger/accounts.py'), 'utf8');
    t.true(text.includes('        net = self.record(amount)\n'), text);
    t.true(text.includes('\n    def record(self, amount):\n'), text);
  } finally {
    await repo.cleanup();
  }
});

test('a Python extract-function without --name is refused before anything runs', async (t) => {
  const repo = await fixtureRepo('python', manifest.workspace);
  try {
    const run = await tug(repo.root, ['run', 'extract-function', '--range', 'src/ledger/report.py:12:5-14:22', '--json']);
    t.is(run.json?.error?.code, 'InvalidArgument', run.stdout);
  } finally {
    await repo.cleanup();
  }
});
