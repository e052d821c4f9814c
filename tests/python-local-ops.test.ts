// Python extract-variable, inline of a local and organize-imports on realistic packages through the real CLI, worker and
// git: each ok case runs the package's own tests (pytest, with doctests where the package has them) in the sandbox;
// refusals name their code and place.
import test from 'ava';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';
import { fixtureRepo } from './helpers/rename-cases.js';
import { checkOpCase, checkPreviewMatchesRun, opManifest } from './helpers/op-cases.js';

const manifest = await opManifest('local_ops.json');
const imports = await opManifest('imports_ops.json');

for (const m of [manifest, imports]) {
  for (const c of m.cases) test(`python ${c.name}`, (t) => checkOpCase(t, m.workspace, c, 'python-ops', [], { warnings: true }));
}

test('analyze-impact shows a Python extract-variable\'s patch, equal to the run\'s, and writes nothing', (t) =>
  checkPreviewMatchesRun(t, manifest.workspace, ['extract-variable', '--range', 'src/geometry/shapes.py:76:12-76:28', '--name', 'gap', '--all']));

test('the shorthand `tug inline --at` and `--apply` write the inlined file, and the package tests still pass on it', async (t) => {
  const repo = await fixtureRepo('python', manifest.workspace);
  try {
    const run = await tug(repo.root, ['inline', '--at', 'src/geometry/shapes.py:42:9', '--apply', '--json']);
    t.is(run.exitCode, 0, run.stdout);
    t.true(run.json.applied);
    const text = await readFile(path.join(repo.root, 'src/geometry/shapes.py'), 'utf8');
    t.true(text.includes('        return (self.width + self.height) * (self.width + self.height)\n'), text);
    t.false(text.includes('half ='));
  } finally {
    await repo.cleanup();
  }
});

test('organize-imports twice changes nothing the second time: analyze-impact shows no edits, the run answers changed false', async (t) => {
  const repo = await fixtureRepo('python', imports.workspace);
  try {
    const first = await tug(repo.root, ['organize-imports', '--file', 'src/inventory/store.py', '--apply', '--json']);
    t.is(first.exitCode, 0, first.stdout);
    await repo.git('commit', '-qam', 'organized');
    const preview = await tug(repo.root, ['analyze-impact', 'organize-imports', '--file', 'src/inventory/store.py', '--json']);
    t.is(preview.exitCode, 0, preview.stdout);
    t.deepEqual(preview.json.patch.edits, []);
    // Nothing to do is success for an idempotent operation: no branch, no undo token (issue 28).
    const second = await tug(repo.root, ['organize-imports', '--file', 'src/inventory/store.py', '--json']);
    t.is(second.exitCode, 0, second.stdout);
    t.like(second.json, { status: 'ok', changed: false });
    t.false('undo_token' in second.json);
  } finally {
    await repo.cleanup();
  }
});

// Found on wadllib (Debian python3-wadllib): `possible_xml_id = this_uri.fragment`, then `this_uri.fragment = None`,
// then a use. Inlined, the use read the attribute after it was cleared, and the package's doctests failed.
test('inline refuses a value that reads an attribute or item when an assignment or a call before a use may change it', async (t) => {
  const repo = await makeRepo({
    'state.py': [
      'def cleared(uri):',
      '    fragment = uri.fragment',
      '    uri.fragment = None',
      '    return fragment',
      '',
      '',
      'def called(row):',
      '    first = row[0]',
      '    row.reverse()',
      '    return first',
      '',
      '',
      'def untouched(uri):',
      '    fragment = uri.fragment',
      '    size = 2',
      '    return str(fragment) * size',
      '',
    ].join('\n'),
  });
  for (const at of ['state.py:2:5', 'state.py:8:5']) {
    const run = await tug(repo.root, ['analyze-impact', 'inline', '--at', at, '--json']);
    t.is(run.exitCode, 4, `${at}: ${run.stdout}`);
    t.is(run.json.error.code, 'UnsafeRefactor');
    t.regex(run.json.error.details.reason, /reads an attribute or item/);
  }
  // A call that holds the use does not run before it.
  const ok = await tug(repo.root, ['analyze-impact', 'inline', '--at', 'state.py:14:5', '--json']);
  t.is(ok.exitCode, 0, ok.stdout);
  await repo.cleanup();
});

// Found on a real CLI table formatter: `term_len(col)` in `max(widths.get(idx, 0), term_len(col))` was refused because
// the statement calls something before it. rope, PyCharm and rust-analyzer extract it; tug now does, saying which
// calls change order (strict keeps the refusal); a := before it that assigns a name it reads is still refused.
const table = [
  'def term_len(text):',
  '    return len(text.expandtabs())',
  '',
  '',
  'def measure(rows):',
  '    widths = {}',
  '    for row in rows:',
  '        for idx, col in enumerate(row):',
  '            widths[idx] = max(widths.get(idx, 0), term_len(col))',
  '    return widths',
  '',
].join('\n');
const tableTest = ['from table import measure', '', '', 'def test_measure():', '    assert measure([["ab", "c"], ["d", "\\tx"]]) == {0: 2, 1: 9}', ''].join('\n');

test('extract-variable of a call after another call in its statement extracts with EvaluationOrderChanged; --strict refuses', async (t) => {
  const repo = await makeRepo({ 'table.py': table, 'test_table.py': tableTest });
  const args = ['extract-variable', '--range', 'table.py:9:51-9:64', '--name', 'width'];
  const run = await tug(repo.root, ['run', ...args, '--verify', 'tests', '--json']);
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification.status, 'passed', JSON.stringify(run.json.verification));
  t.deepEqual(run.json.warnings.map((w: { code: string; details: unknown; location: unknown }) => [w.code, w.details, w.location]), [['EvaluationOrderChanged', { calls: ['widths.get(idx, 0)'] }, { file: 'table.py', line: 9, col: 51 }]]);
  const text = await repo.git('show', `${run.json.git.branch}:table.py`);
  t.true(text.includes('            width = term_len(col)\n            widths[idx] = max(widths.get(idx, 0), width)\n'), text);
  const strict = await tug(repo.root, ['run', ...args, '--strict', '--verify', 'none', '--json']);
  t.is(strict.json?.error?.code, 'UnsafeRefactor', strict.stdout);
  await repo.cleanup();
});

test('extract-variable refuses an expression that reads a name a := before it in the statement assigns', async (t) => {
  const code = ['def first_word(line):', '    return (head := line.split()[0]), head.upper()', ''].join('\n');
  const repo = await makeRepo({ 'words.py': code });
  const run = await tug(repo.root, ['run', 'extract-variable', '--range', 'words.py:2:39-2:51', '--name', 'loud', '--verify', 'none', '--json']);
  t.is(run.json?.error?.code, 'UnsafeRefactor', run.stdout);
  t.regex(run.json.error.details.reason, /reads head, which := assigns before it/);
  await repo.cleanup();
});
