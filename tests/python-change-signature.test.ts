// Python change-signature on a src-layout package through the real CLI, worker and git: each ok case runs the
// package's own tests in the sandbox; refusals name their code.
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
const manifest = await manifestOf('change_signature.json');

for (const [workspace, c] of manifest.cases.map((c) => [manifest.workspace, c] as const)) {
  test(`python ${c.name}`, async (t) => {
    const repo = await fixtureRepo('python', c.workspace ?? workspace);
    try {
      const verify = c.verify ?? 'tests';
      const run = await tug(repo.root, ['run', ...c.argv, '--verify', verify, '--json']);
      if (c.expect !== 'ok') {
        t.is(run.json?.error?.code, c.expect, run.stdout);
        t.not(run.exitCode, 0);
        await expectGolden(t, `python-change-signature/${c.name}.json`, `${run.stdout.replaceAll(repo.root, '<workspace>')}\n`);
      } else {
        t.is(run.exitCode, 0, run.stdout);
        t.is(run.json.verification.status, 'passed', JSON.stringify(run.json.verification));
        if (verify === 'tests') t.true(run.json.verification.checks.some((check: { name: string }) => check.name === 'tests'), 'the package tests ran');
        if (c.edits !== undefined) t.is(run.json.summary.edits_count, c.edits);
        if (c.files !== undefined) t.is(run.json.summary.files_changed, c.files);
        await expectGolden(t, `python-change-signature/${c.name}.warnings.json`, `${JSON.stringify(run.json.warnings, null, 2)}\n`);
        await expectGolden(t, `python-change-signature/${c.name}.patch`, run.json.patch.unified_diff);
      }
      t.is(await repo.git('status', '--porcelain'), '', 'the working tree is untouched');
    } finally {
      await repo.cleanup();
    }
  });
}

