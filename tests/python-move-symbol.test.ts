// Python move-symbol on a src-layout package through the real CLI, worker and git: each ok case runs the package's own
// tests in the sandbox; refusals name their code. Goldens in golden/python-move/.
import test from 'ava';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { tug } from './helpers/cli.js';
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
