// The fixture-manifest check both language adapters share: copy fixtures/<lang>/<workspace> into a fresh repo, rename, compare with goldens.
import type { ExecutionContext } from 'ava';
import { cp } from 'node:fs/promises';
import path from 'node:path';
import { tug } from './cli.js';
import { expectGolden, PROJECT_ROOT } from './golden.js';
import { makeRepo, type TestRepo } from './repo.js';

export interface RenameCase {
  name: string;
  workspace: string;
  at: string;
  to: string;
  verify: string;
  expect: string;
  expected_edits?: number;
  expected_files?: number;
  flags?: string[];
}

/** A fresh repo holding one committed copy of fixtures/<language>/<workspace> (build output left behind). */
export async function fixtureRepo(language: string, workspace: string): Promise<TestRepo> {
  const repo = await makeRepo({});
  await cp(path.join(PROJECT_ROOT, 'fixtures', language, workspace), repo.root, { recursive: true, filter: (src) => !/[/\\](target|Cargo\.lock)$/.test(src) });
  await repo.git('add', '-A');
  await repo.git('commit', '-q', '-m', `fixture ${workspace}`);
  return repo;
}

/** Runs one manifest case through the real CLI; `normalize` masks machine-specific text in the JSON golden. */
export async function checkRenameCase(t: ExecutionContext, language: string, c: RenameCase, normalize: (stdout: string) => string = (s) => s): Promise<void> {
  const repo = await fixtureRepo(language, c.workspace);
  await checkRenameCaseIn(t, language, c, repo, {}, normalize);
  await repo.cleanup();
}

/**
 * The same check on a copy of the case's fixture that the caller made (and cleans up), with `env` for the CLI: the copy
 * may be shared by several cases behind one daemon (helpers/warm-fixture.ts), since a rename without --apply leaves the
 * working tree as it was.
 */
export async function checkRenameCaseIn(t: ExecutionContext, language: string, c: RenameCase, repo: TestRepo, env: Record<string, string>, normalize: (stdout: string) => string = (s) => s): Promise<void> {
  const run = await tug(repo.root, ['rename', c.at, c.to, '--verify', c.verify, ...(c.flags ?? [])], { env });
  await expectGolden(t, `${language}/${c.name}.json`, `${normalize(run.stdout.replaceAll(repo.root, '<workspace>'))}\n`);
  if (c.expect !== 'ok') {
    t.is(run.json?.error?.code, c.expect, run.stdout);
    t.not(run.exitCode, 0);
    return;
  }
  t.is(run.exitCode, 0, run.stdout);
  if (c.expected_edits !== undefined) t.is(run.json.summary.edits_count, c.expected_edits, 'edit count');
  if (c.expected_files !== undefined) t.is(run.json.summary.files_changed, c.expected_files, 'file count');
  t.is(run.json.verification.status, 'passed');
  await expectGolden(t, `${language}/${c.name}.patch`, run.json.patch.unified_diff);
}
