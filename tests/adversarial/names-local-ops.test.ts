// Hostile names and encodings for extract-variable, extract-function, change-signature and rename (issue 35): a name
// is what Python reads (NFKC: `ｘ` is x), every type, default and value is one piece of its kind, a BOM is no part of
// line 1's columns, and a CRLF file stays CRLF. A refusal is a coded error; nothing is committed.
import test from 'ava';
import { tug } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';

const prices = ['def net(amount, rate):', '    return amount * (1 - rate)', '', '', 'def order(total):', '    return net(total, 0.2)', ''].join('\n');

const branches = async (repo: TestRepo) => repo.git('branch', '--list', 'tug/*');
const fileAt = async (repo: TestRepo, branch: string, file: string) => repo.git('show', `${branch}:${file}`);

test('change-signature refuses a keyword name, an empty default, a type or default that smuggles in a parameter, and a value that is two arguments', async (t) => {
  const repo = await makeRepo({ 'prices.py': prices });
  const cases: [string, unknown[], RegExp][] = [
    ['keyword', [{ name: 'amount' }, { name: 'rate' }, { name: 'class', default: '1' }], /keyword/],
    ['full-width keyword', [{ name: 'amount' }, { name: 'rate' }, { name: 'ｃｌａｓｓ', default: '1' }], /keyword/],
    ['empty default', [{ name: 'amount' }, { name: 'rate', default: '' }], /not a Python expression/],
    ['type with a parameter', [{ name: 'amount', type: 'int = 5, f' }, { name: 'rate' }], /the type "int = 5, f" of amount is not a Python expression/],
    ['default with a parameter', [{ name: 'amount' }, { name: 'rate', default: '(0.2), f=1' }], /the default .* of rate is not a Python expression/],
    ['default that is two', [{ name: 'amount' }, { name: 'rate', default: '0.2, f' }], /the default .* of rate does not stay one default/],
    ['type with a comment', [{ name: 'amount', type: 'float  # ok' }, { name: 'rate' }], /does not stay one annotation/],
    ['two values', [{ name: 'amount' }, { name: 'rate' }, { name: 'currency', value: '"EUR", 2' }], /does not stay one argument/],
  ];
  for (const [what, params, message] of cases) {
    const run = await tug(repo.root, ['run', 'change-signature', '--at', 'prices.py:1:5', '--params', JSON.stringify(params), '--verify', 'none', '--json']);
    t.is(run.json?.error?.code, 'InvalidArgument', `${what}: ${run.stdout}`);
    t.is(run.exitCode, 2, what);
    t.regex(run.json.error.message, message, what);
  }
  t.is(await branches(repo), '', 'nothing was committed');
  t.is(await repo.git('status', '--porcelain'), '');
  await repo.cleanup();
});

test('change-signature and rename take a full-width name as the name Python reads (NFKC)', async (t) => {
  const repo = await makeRepo({ 'prices.py': prices });
  const params = JSON.stringify([{ name: 'ａｍｏｕｎｔ' }, { name: 'ｒ', from: 'rate' }]);
  const signature = await tug(repo.root, ['run', 'change-signature', '--at', 'prices.py:1:5', '--params', params, '--verify', 'syntax', '--json']);
  t.is(signature.exitCode, 0, signature.stdout);
  t.true((await fileAt(repo, signature.json.git.branch, 'prices.py')).startsWith('def net(amount, r):\n    return amount * (1 - r)\n'));
  const rename = await tug(repo.root, ['run', 'rename-symbol', '--at', 'prices.py:5:5', '--to', 'ｂｏｏｋ', '--verify', 'syntax', '--json']);
  t.is(rename.exitCode, 0, rename.stdout);
  t.true((await fileAt(repo, rename.json.git.branch, 'prices.py')).includes('def book(total):'));
  await repo.cleanup();
});

test('extract-variable and extract-function compare a full-width name as Python reads it: NameConflict, not a silent rebinding', async (t) => {
  const code = ['def helper(x):', '    return x', '', '', 'def scale(x):', '    y = helper(x) * 2', '    return y + x', ''].join('\n');
  const repo = await makeRepo({ 'calc.py': code });
  const variable = await tug(repo.root, ['run', 'extract-variable', '--range', 'calc.py:6:9-6:18', '--name', 'ｘ', '--verify', 'none', '--json']);
  t.is(variable.json?.error?.code, 'NameConflict', variable.stdout);
  const fn = await tug(repo.root, ['run', 'extract-function', '--range', 'calc.py:6:5-6:22', '--name', 'ｈｅｌｐｅｒ', '--verify', 'none', '--json']);
  t.is(fn.json?.error?.code, 'NameConflict', fn.stdout);
  const fresh = await tug(repo.root, ['run', 'extract-variable', '--range', 'calc.py:6:9-6:18', '--name', 'ｈｅｌｄ', '--verify', 'syntax', '--json']);
  t.is(fresh.exitCode, 0, fresh.stdout);
  t.true((await fileAt(repo, fresh.json.git.branch, 'calc.py')).includes('    held = helper(x)\n    y = held * 2\n'));
  t.is(await branches(repo), `  ${fresh.json.git.branch}`);
  await repo.cleanup();
});

test('a BOM is no part of line 1: extract-variable there takes the columns the user sees and keeps the BOM first', async (t) => {
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  const repo = await makeRepo({ 'main.py': Buffer.concat([bom, Buffer.from('print(len("abc") + 1)\n')]) });
  const run = await tug(repo.root, ['run', 'extract-variable', '--range', 'main.py:1:7-1:17', '--name', 'size', '--verify', 'syntax', '--json']);
  t.is(run.exitCode, 0, run.stdout);
  const blob = Buffer.from(await repo.git('cat-file', '-p', `${run.json.git.branch}:main.py`), 'utf8');
  t.deepEqual(blob.subarray(0, 3), bom);
  t.is(blob.subarray(3).toString('utf8'), 'size = len("abc")\nprint(size + 1)');
  await repo.cleanup();
});

test('extract-variable in a CRLF file inserts a CRLF line', async (t) => {
  const repo = await makeRepo({ 'area.py': 'def area(w, h):\r\n    return round(w * h, 2)\r\n' });
  const run = await tug(repo.root, ['run', 'extract-variable', '--range', 'area.py:2:18-2:23', '--name', 'raw', '--verify', 'syntax', '--json']);
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.patch.edits.map((e: { new_text: string }) => e.new_text).join('|'), '    raw = w * h\r\n|raw');
  await repo.cleanup();
});
