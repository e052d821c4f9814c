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

test('organize-imports twice changes nothing the second time; analyze-impact then shows no edits', async (t) => {
  const repo = await fixtureRepo('python', imports.workspace);
  try {
    const first = await tug(repo.root, ['organize-imports', '--file', 'src/inventory/store.py', '--apply', '--json']);
    t.is(first.exitCode, 0, first.stdout);
    await repo.git('commit', '-qam', 'organized');
    const preview = await tug(repo.root, ['analyze-impact', 'organize-imports', '--file', 'src/inventory/store.py', '--json']);
    t.is(preview.exitCode, 0, preview.stdout);
    t.deepEqual(preview.json.patch.edits, []);
    const second = await tug(repo.root, ['organize-imports', '--file', 'src/inventory/store.py', '--json']);
    t.is(second.json.error.code, 'InvalidArgument');
    t.regex(second.json.error.message, /leaves every file as it was/);
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
