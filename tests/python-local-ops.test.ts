// Python extract-variable, inline of a local and organize-imports on realistic packages through the real CLI, worker and
// git: each ok case runs the package's own tests (pytest, with doctests where the package has them) in the sandbox;
// refusals name their code and place.
import test from 'ava';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { tug } from './helpers/cli.js';
import { expectGolden, PROJECT_ROOT } from './helpers/golden.js';
import { fixtureRepo } from './helpers/rename-cases.js';

interface LocalCase {
  name: string;
  argv: string[];
  expect: string;
  edits?: number;
  files?: number;
  workspace?: string;
  verify?: string;
}

async function manifestOf(name: string) {
  return JSON.parse(await readFile(path.join(PROJECT_ROOT, 'fixtures', 'python', name), 'utf8')) as { workspace: string; cases: LocalCase[] };
}
const manifest = await manifestOf('local_ops.json');
const imports = await manifestOf('imports_ops.json');

for (const [workspace, c] of [...manifest.cases.map((c) => [manifest.workspace, c] as const), ...imports.cases.map((c) => [imports.workspace, c] as const)]) {
  test(`python ${c.name}`, async (t) => {
    const repo = await fixtureRepo('python', c.workspace ?? workspace);
    try {
      const verify = c.verify ?? 'tests';
      const run = await tug(repo.root, ['run', ...c.argv, '--verify', verify, '--json']);
      if (c.expect !== 'ok') {
        t.is(run.json?.error?.code, c.expect, run.stdout);
        t.not(run.exitCode, 0);
        await expectGolden(t, `python-ops/${c.name}.json`, `${run.stdout.replaceAll(repo.root, '<workspace>')}\n`);
      } else {
        t.is(run.exitCode, 0, run.stdout);
        t.is(run.json.verification.status, 'passed', JSON.stringify(run.json.verification));
        if (verify === 'tests') t.true(run.json.verification.checks.some((check: { name: string }) => check.name === 'tests'), 'the package tests ran');
        if (c.edits !== undefined) t.is(run.json.summary.edits_count, c.edits);
        if (c.files !== undefined) t.is(run.json.summary.files_changed, c.files);
        await expectGolden(t, `python-ops/${c.name}.warnings.json`, `${JSON.stringify(run.json.warnings, null, 2)}\n`);
        await expectGolden(t, `python-ops/${c.name}.patch`, run.json.patch.unified_diff);
      }
      t.is(await repo.git('status', '--porcelain'), '', 'the working tree is untouched');
    } finally {
      await repo.cleanup();
    }
  });
}

test('analyze-impact shows a Python extract-variable\'s patch, equal to the run\'s, and writes nothing', async (t) => {
  const repo = await fixtureRepo('python', manifest.workspace);
  try {
    const args = ['extract-variable', '--range', 'src/geometry/shapes.py:76:12-76:28', '--name', 'gap', '--all'];
    const preview = await tug(repo.root, ['analyze-impact', ...args, '--json']);
    t.is(preview.exitCode, 0, preview.stdout);
    t.is(preview.json.operation, 'extract-variable');
    t.is(await repo.git('branch', '--list', 'tug/*'), '');
    const run = await tug(repo.root, ['run', ...args, '--json']);
    t.is(run.json.patch.unified_diff, preview.json.patch.unified_diff);
    const again = await tug(repo.root, ['analyze-impact', ...args, '--json']);
    t.is(again.stdout, preview.stdout, 'the same input gives the same JSON');
  } finally {
    await repo.cleanup();
  }
});

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
