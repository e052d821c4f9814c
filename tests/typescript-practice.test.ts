// A long-lived tug (daemon, MCP server) runs the completeness check once on its first TypeScript analysis, so the renames after it find the check's compiler code compiled, and after each analysis the check of that rename, so the rename that follows finds it passed; a one-shot process does neither, and the analysis answers the same.
import test from 'ava';
import { keepInMemory } from '../lib/core/memory.js';
import { discoverRepo } from '../lib/git/repo.js';
import { planTsRename } from '../lib/typescript/rename-plan.js';
import { openTsWorkspace } from '../lib/typescript/workspace.js';
import { tsFixture } from './helpers/typescript.js';

test.serial('the first analysis of a long-lived process practises the check once, later ones prepare their own, with the same answers; a one-shot process does neither', async (t) => {
  const repo = await tsFixture('shapes');
  const gitRepo = await discoverRepo(repo.root);
  const tree = await repo.git('rev-parse', 'HEAD^{tree}');
  const ws = await openTsWorkspace(gitRepo, tree, 'src/geometry.ts');
  let trials = 0;
  for (const project of ws.projects.all(ws.scripts, ws.configs)) {
    const trial = project.trial;
    project.trial = () => {
      trials += 1;
      return trial();
    };
  }
  const analyse = (newName: string) => planTsRename({ repo: gitRepo, tree, target: { file: 'src/geometry.ts', line: 8, col: 17 }, newName });
  try {
    const oneShot = await analyse('span');
    t.is(trials, 0, 'a process that does not keep its workspaces checks nothing for an analysis');
    keepInMemory();
    t.deepEqual(await analyse('span'), oneShot);
    t.true(trials > 0, 'the first analysis of a long-lived process ran the check');
    const practised = trials;
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    // Later analyses practise nothing more; one of a rename not checked yet prepares that check once it answered.
    t.is((await analyse('gap')).references.length, oneShot.references.length);
    await turn();
    const prepared = trials;
    t.true(prepared > practised, 'the analysis of another name prepared its check');
    const planned = await planTsRename({ repo: gitRepo, tree, target: { file: 'src/geometry.ts', line: 8, col: 17 }, newName: 'gap', check: true });
    t.is(planned.references.length, oneShot.references.length);
    t.is(trials, prepared, 'the rename found its check prepared');
    t.deepEqual(await analyse('span'), oneShot);
    await turn();
    t.is(trials, prepared, 'a check passed already is neither practised nor prepared again');
    // A prepared check that refuses the rename is not kept: the rename checks and reports it.
    await analyse('ORIGIN');
    await turn();
    const refused = await t.throwsAsync(planTsRename({ repo: gitRepo, tree, target: { file: 'src/geometry.ts', line: 8, col: 17 }, newName: 'ORIGIN', check: true }));
    t.is((refused as { code?: string } | undefined)?.code, 'NameConflict');
  } finally {
    await repo.cleanup();
  }
});
