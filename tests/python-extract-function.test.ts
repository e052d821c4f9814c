// Python extract-function on a realistic package through the real CLI, worker and git: each ok case runs the package's
// own tests in the sandbox and the patch is checked against its golden; refusals name their code and place.
import test from 'ava';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { tug } from './helpers/cli.js';
import { expectGolden, PROJECT_ROOT } from './helpers/golden.js';
import { fixtureRepo } from './helpers/rename-cases.js';

interface Case {
  name: string;
  argv: string[];
  expect: string;
}

const manifest = JSON.parse(await readFile(path.join(PROJECT_ROOT, 'fixtures', 'python', 'extract_function.json'), 'utf8')) as { workspace: string; cases: Case[] };

for (const c of manifest.cases) {
  test(`python ${c.name}`, async (t) => {
    const repo = await fixtureRepo('python', manifest.workspace);
    try {
      const run = await tug(repo.root, ['run', ...c.argv, '--verify', 'tests', '--json']);
      if (c.expect !== 'ok') {
        t.is(run.json?.error?.code, c.expect, run.stdout);
        t.not(run.exitCode, 0);
        await expectGolden(t, `python-ops/${c.name}.json`, `${run.stdout.replaceAll(repo.root, '<workspace>')}\n`);
      } else {
        t.is(run.exitCode, 0, run.stdout);
        t.is(run.json.verification.status, 'passed', JSON.stringify(run.json.verification));
        t.true(run.json.verification.checks.some((check: { name: string }) => check.name === 'tests'), 'the package tests ran');
        await expectGolden(t, `python-ops/${c.name}.patch`, run.json.patch.unified_diff);
      }
      t.is(await repo.git('status', '--porcelain'), '', 'the working tree is untouched');
    } finally {
      await repo.cleanup();
    }
  });
}

test('analyze-impact shows a Python extract-function patch equal to the run\'s, the same each time, and writes nothing', async (t) => {
  const repo = await fixtureRepo('python', manifest.workspace);
  try {
    const args = ['extract-function', '--range', 'src/ledger/report.py:12:5-14:22', '--name', 'after_tax'];
    const preview = await tug(repo.root, ['analyze-impact', ...args, '--json']);
    t.is(preview.exitCode, 0, preview.stdout);
    t.is(preview.json.operation, 'extract-function');
    t.is(await repo.git('branch', '--list', 'tug/*'), '');
    const run = await tug(repo.root, ['run', ...args, '--json']);
    t.is(run.json.patch.unified_diff, preview.json.patch.unified_diff);
    const again = await tug(repo.root, ['analyze-impact', ...args, '--json']);
    t.is(again.stdout, preview.stdout);
  } finally {
    await repo.cleanup();
  }
});

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
