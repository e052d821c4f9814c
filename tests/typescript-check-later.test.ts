// A TypeScript rename's completeness check run by the change pipeline while git writes the result's blobs and tree: it proves the programs the plan searched (planned again when the workspace moved meanwhile), and a refusal leaves only objects nothing names.
import test from 'ava';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { renameSymbol } from '../lib/index.js';
import { blobOid } from '../lib/core/hash.js';
import { discoverRepo } from '../lib/git/repo.js';
import { openTsWorkspace } from '../lib/typescript/workspace.js';
import { planTsRename } from '../lib/typescript/rename-plan.js';
import { countSearches, tsFixture } from './helpers/typescript.js';

const AT = { file: 'src/geometry.ts', line: 8, column: 17 };
const target = { file: AT.file, line: AT.line, col: AT.column };
const codeOf = (error: unknown) => (error as { code?: string } | undefined)?.code;

test.serial('a check left for later proves the programs the plan searched, and plans again when the workspace moved to another snapshot meanwhile', async (t) => {
  const repo = await tsFixture('shapes');
  const gitRepo = await discoverRepo(repo.root);
  const tree = await repo.git('rev-parse', 'HEAD^{tree}');
  const geometry = await repo.readText('src/geometry.ts');
  await repo.write('src/geometry.ts', `${geometry}export const span = 3;\n`);
  await repo.git('add', '-A');
  const clashing = await repo.git('write-tree');
  const ws = await openTsWorkspace(gitRepo, tree, AT.file);
  const projects = ws.projects.all(ws.scripts, ws.configs);
  const searched = countSearches(projects);
  const later = async (at: string, newName: string) => {
    const plan = await planTsRename({ repo: gitRepo, tree: at, target, newName, check: 'later' });
    t.is(typeof plan.check, 'function', 'the check is handed back, not run');
    return plan;
  };
  try {
    // The workspace where the plan left it: the check runs on its programs.
    const plan = await later(tree, 'span');
    const counted = searched.count();
    await plan.check!();
    t.is(searched.count(), counted, 'nothing planned again');
    await t.throwsAsync(async () => (await later(clashing, 'span')).check!(), { code: 'NameConflict' }, 'a clash is refused as an inline check refuses it');

    // Another call moves the workspace to the clashing snapshot between the plan and its check: planned again on the
    // plan's own snapshot, where the rename is fine.
    const fine = await later(tree, 'span');
    await openTsWorkspace(gitRepo, clashing, AT.file);
    const before = searched.count();
    await fine.check!();
    t.true(searched.count() > before, 'planned again');
    // And the other way round: the clash is still found on its own snapshot after a move to a clean one.
    const refused = await later(clashing, 'span');
    await openTsWorkspace(gitRepo, tree, AT.file);
    t.is(codeOf(await t.throwsAsync(refused.check!())), 'NameConflict');
    // An inline check (change-signature's renames, a plan step) answers as before.
    await t.throwsAsync(planTsRename({ repo: gitRepo, tree: clashing, target, newName: 'span', check: true }), { code: 'NameConflict' });
  } finally {
    searched.restore();
    await repo.cleanup();
  }
});

test.serial('a rename its check refuses after the result tree was started leaves no ref, note or file: only objects nothing names', async (t) => {
  const repo = await tsFixture('shapes');
  const geometry = await repo.readText('src/geometry.ts');
  const clashing = `${geometry}export const span = 3;\n`;
  await repo.write('src/geometry.ts', clashing);
  const refs = () => repo.git('for-each-ref', '--format=%(refname) %(objectname)');
  const status = () => repo.git('status', '--porcelain', '--untracked-files=all');
  const [refsBefore, statusBefore] = [await refs(), await status()];
  const error = await t.throwsAsync(renameSymbol({ workspace: repo.root, ...AT, new_name: 'span', verify: 'none' }));
  t.is(codeOf(error), 'NameConflict', error?.message);
  t.is(await refs(), refsBefore, 'no branch, undo point or note');
  t.is(await status(), statusBefore, 'the working tree and index as they were');
  t.is(await repo.readText('src/geometry.ts'), clashing);
  // The renamed file's blob was written while the check ran: the mechanism was on this road.
  const renamed = Buffer.from(clashing.replace(/\bdistance\b/g, 'span'));
  t.is(await repo.git('cat-file', '-t', blobOid(renamed)), 'blob');
  const scratch = path.join(repo.root, '.git', 'tug', 'scratch');
  t.deepEqual((await readdir(scratch).catch(() => [])).filter((f) => f.startsWith('result-')), [], 'no scratch file left');

  // The same rename once the clash is gone commits as usual.
  await repo.write('src/geometry.ts', geometry);
  const run = await renameSymbol({ workspace: repo.root, ...AT, new_name: 'span', verify: 'none' });
  t.is(run.status, 'ok');
  t.is(await repo.git('show', `${run.git!.commit}:src/geometry.ts`), geometry.replace(/\bdistance\b/g, 'span').trimEnd());
  await repo.cleanup();
});
