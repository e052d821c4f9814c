// The fixture-manifest check the Python refactors share: `tug run <argv> --verify tests` on a fresh copy of a package,
// the package's own tests in the sandbox for ok cases, goldens for patches, warnings and refusals; and the check that
// analyze-impact shows the run's patch, the same each time, writing nothing.
import type { ExecutionContext } from 'ava';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { tug } from './cli.js';
import { expectGolden, PROJECT_ROOT } from './golden.js';
import { fixtureRepo } from './rename-cases.js';

export interface OpCase {
  name: string;
  argv: string[];
  expect: string;
  edits?: number;
  files?: number;
  /** Another fixture package than the manifest's. */
  workspace?: string;
  verify?: string;
  created?: string[];
  unsure?: number;
}

export interface OpManifest {
  workspace: string;
  cases: OpCase[];
}

export async function opManifest(file: string): Promise<OpManifest> {
  return JSON.parse(await readFile(path.join(PROJECT_ROOT, 'fixtures', 'python', file), 'utf8')) as OpManifest;
}

/** What a case keeps as goldens besides the patch (or the refusal). */
export interface GoldenParts {
  warnings?: boolean;
  unsure?: boolean;
}

export async function checkOpCase(t: ExecutionContext, workspace: string, c: OpCase, goldenDir: string, prefix: string[] = [], parts: GoldenParts = {}): Promise<void> {
  const repo = await fixtureRepo('python', c.workspace ?? workspace);
  try {
    const verify = c.verify ?? 'tests';
    const run = await tug(repo.root, ['run', ...prefix, ...c.argv, '--verify', verify, '--json']);
    if (c.expect !== 'ok') {
      t.is(run.json?.error?.code, c.expect, run.stdout);
      t.not(run.exitCode, 0);
      await expectGolden(t, `${goldenDir}/${c.name}.json`, `${run.stdout.replaceAll(repo.root, '<workspace>')}\n`);
    } else {
      t.is(run.exitCode, 0, run.stdout);
      // Nothing to do (an idempotent operation's changed: false) has nothing to verify.
      const changed = run.json.changed !== false;
      t.is(run.json.verification.status, changed ? 'passed' : 'skipped', JSON.stringify(run.json.verification));
      if (verify === 'tests' && changed) t.true(run.json.verification.checks.some((check: { name: string }) => check.name === 'tests'), 'the package tests ran');
      if (c.edits !== undefined) t.is(run.json.summary.edits_count, c.edits);
      if (c.files !== undefined) t.is(run.json.summary.files_changed, c.files);
      if (c.created) t.deepEqual(run.json.patch.files_created, c.created);
      if (parts.unsure) t.is((run.json.unsure ?? []).length, c.unsure ?? 0, JSON.stringify(run.json.unsure));
      if (parts.warnings) await expectGolden(t, `${goldenDir}/${c.name}.warnings.json`, `${JSON.stringify(run.json.warnings, null, 2)}\n`);
      if (parts.unsure) await expectGolden(t, `${goldenDir}/${c.name}.unsure.json`, `${JSON.stringify(run.json.unsure ?? [], null, 2)}\n`);
      await expectGolden(t, `${goldenDir}/${c.name}.patch`, run.json.patch.unified_diff);
    }
    t.is(await repo.git('status', '--porcelain'), '', 'the working tree is untouched');
  } finally {
    await repo.cleanup();
  }
}

/** analyze-impact of `args` (a refactor and its flags) equals the run's patch, is byte-identical twice, and writes nothing. */
export async function checkPreviewMatchesRun(t: ExecutionContext, workspace: string, args: string[]): Promise<void> {
  const repo = await fixtureRepo('python', workspace);
  try {
    const preview = await tug(repo.root, ['analyze-impact', ...args, '--json']);
    t.is(preview.exitCode, 0, preview.stdout);
    t.is(preview.json.operation, args[0]);
    t.is(await repo.git('branch', '--list', 'tug/*'), '');
    const run = await tug(repo.root, ['run', ...args, '--json']);
    t.is(run.json.patch.unified_diff, preview.json.patch.unified_diff);
    const again = await tug(repo.root, ['analyze-impact', ...args, '--json']);
    t.is(again.stdout, preview.stdout, 'the same input gives the same JSON');
  } finally {
    await repo.cleanup();
  }
}
