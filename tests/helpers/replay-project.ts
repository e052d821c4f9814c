// A small src-layout Python package with pytest tests, and the moves of its base the replay tests make after a branch.
import { execa } from './execa.js';
import { PYTEST_NO_PLUGINS } from './plan-project.js';
import { makeRepo, type TestRepo } from './repo.js';

export const PROJECT = {
  'pyproject.toml': `[project]\nname = "shop"\nversion = "0.1.0"\n\n[tool.pytest.ini_options]\npythonpath = ["src"]\ntestpaths = ["tests"]\n${PYTEST_NO_PLUGINS}\n`,
  'src/shop/__init__.py': '',
  'src/shop/pricing.py': [
    '"""Prices of a cart."""',
    '',
    'TAX = 0.2',
    '',
    '',
    'def compute_total(items, discount=0):',
    '    subtotal = sum(price for _, price in items)',
    '    return round(subtotal * (1 + TAX) - discount, 2)',
    '',
  ].join('\n'),
  'src/shop/cart.py': [
    'from shop.pricing import compute_total',
    '',
    '',
    'class Cart:',
    '    def __init__(self):',
    '        self.items = []',
    '',
    '    def add(self, name, price):',
    '        self.items.append((name, price))',
    '',
    '    def total(self):',
    '        return compute_total(self.items)',
    '',
  ].join('\n'),
  'tests/test_cart.py': [
    'from shop.cart import Cart',
    'from shop.pricing import compute_total',
    '',
    '',
    'def test_total():',
    '    cart = Cart()',
    '    cart.add("tea", 10)',
    '    assert cart.total() == 12.0',
    '',
    '',
    'def test_discount():',
    '    assert compute_total([("tea", 10)], discount=2) == 10.0',
    '',
  ].join('\n'),
};

export async function makeProject(): Promise<TestRepo> {
  return makeRepo(PROJECT);
}

/** The base moves on: a new module calls the old name, and the line next to a renamed call is edited. */
export async function moveBase(repo: TestRepo): Promise<void> {
  await repo.write(
    'src/shop/report.py',
    ['from shop.pricing import compute_total', '', '', 'def report(items):', '    return f"total: {compute_total(items)}"', ''].join('\n'),
  );
  await repo.write('tests/test_report.py', ['from shop.report import report', '', '', 'def test_report():', '    assert report([("tea", 10)]) == "total: 12.0"', ''].join('\n'));
  const cart = (await repo.readText('src/shop/cart.py')).replace('    def total(self):\n        return compute_total(self.items)', '    def total(self):\n        # Prices include tax.\n        return compute_total(self.items)');
  await repo.write('src/shop/cart.py', cart);
  await repo.git('add', '-A');
  await repo.git('commit', '-q', '-m', 'report module; note on Cart.total');
}

/** Merges `branch` into main for real and runs the tests there. */
export async function mergeAndTest(repo: TestRepo, branch: string): Promise<{ merged: boolean; tests: number; output: string }> {
  const merge = await execa('git', ['merge', '--no-edit', '-q', branch], { cwd: repo.root, reject: false });
  if (merge.exitCode !== 0) {
    await execa('git', ['merge', '--abort'], { cwd: repo.root, reject: false });
    return { merged: false, tests: -1, output: merge.stdout + merge.stderr };
  }
  const run = await execa('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], { cwd: repo.root, reject: false });
  return { merged: true, tests: run.exitCode ?? -1, output: run.stdout + run.stderr };
}
