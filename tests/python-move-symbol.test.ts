// Python move-symbol on a src-layout package through the real CLI, worker and git: each ok case runs the package's own
// tests in the sandbox; refusals name their code. Goldens in golden/python-move/.
import test from 'ava';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { tug } from './helpers/cli.js';
import { expectGolden, PROJECT_ROOT } from './helpers/golden.js';
import { fixtureRepo } from './helpers/rename-cases.js';

interface MoveCase {
  name: string;
  argv: string[];
  expect: string;
  created?: string[];
  unsure?: number;
}

const manifest = JSON.parse(await readFile(path.join(PROJECT_ROOT, 'fixtures', 'python', 'move_symbol.json'), 'utf8')) as { workspace: string; cases: MoveCase[] };

for (const c of manifest.cases) {
  test(`python move-symbol ${c.name}`, async (t) => {
    const repo = await fixtureRepo('python', manifest.workspace);
    try {
      const run = await tug(repo.root, ['run', 'move-symbol', ...c.argv, '--verify', 'tests', '--json']);
      if (c.expect !== 'ok') {
        t.is(run.json?.error?.code, c.expect, run.stdout);
        t.not(run.exitCode, 0);
        await expectGolden(t, `python-move/${c.name}.json`, `${run.stdout.replaceAll(repo.root, '<workspace>')}\n`);
      } else {
        t.is(run.exitCode, 0, run.stdout);
        t.is(run.json.verification.status, 'passed', JSON.stringify(run.json.verification));
        t.true(run.json.verification.checks.some((check: { name: string }) => check.name === 'tests'), 'the package tests ran');
        if (c.created) t.deepEqual(run.json.patch.files_created, c.created);
        t.is((run.json.unsure ?? []).length, c.unsure ?? 0, JSON.stringify(run.json.unsure));
        await expectGolden(t, `python-move/${c.name}.warnings.json`, `${JSON.stringify(run.json.warnings, null, 2)}\n`);
        await expectGolden(t, `python-move/${c.name}.unsure.json`, `${JSON.stringify(run.json.unsure ?? [], null, 2)}\n`);
        await expectGolden(t, `python-move/${c.name}.patch`, run.json.patch.unified_diff);
      }
      t.is(await repo.git('status', '--porcelain'), '', 'the working tree is untouched');
    } finally {
      await repo.cleanup();
    }
  });
}

test('analyze-impact previews a move with the same patch as the run, and writes nothing', async (t) => {
  const repo = await fixtureRepo('python', manifest.workspace);
  try {
    const args = ['move-symbol', '--at', 'src/shop/pricing.py:34:5', '--destination', 'shop.discounts'];
    const preview = await tug(repo.root, ['analyze-impact', ...args, '--json']);
    t.is(preview.exitCode, 0, preview.stdout);
    t.is(preview.json.operation, 'move-symbol');
    t.is(await repo.git('branch', '--list', 'tug/*'), '');
    const run = await tug(repo.root, ['run', ...args, '--json']);
    t.is(run.json.patch.unified_diff, preview.json.patch.unified_diff);
    const again = await tug(repo.root, ['analyze-impact', ...args, '--json']);
    t.is(again.stdout, preview.stdout, 'the same input gives the same JSON');
  } finally {
    await repo.cleanup();
  }
});

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
    t.regex(tests.stdout, /6 passed/);
  } finally {
    await repo.cleanup();
  }
});
