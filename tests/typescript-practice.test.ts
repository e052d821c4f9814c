// A long-lived tug (daemon, MCP server) runs the completeness check once on its first TypeScript analysis, so the renames after it find the check's compiler code compiled; a one-shot process never does, and the analysis answers the same.
import test from 'ava';
import { keepInMemory } from '../lib/core/memory.js';
import { discoverRepo } from '../lib/git/repo.js';
import { planTsRename } from '../lib/typescript/rename-plan.js';
import { openTsWorkspace } from '../lib/typescript/workspace.js';
import { tsFixture } from './helpers/typescript.js';

test.serial('the first analysis of a long-lived process practises the check once, with the same answer; a one-shot process does not', async (t) => {
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
    // Later analyses, of another name or the same, practise nothing more.
    t.is((await analyse('gap')).references.length, oneShot.references.length);
    t.deepEqual(await analyse('span'), oneShot);
    t.is(trials, practised, 'once per compiler and process');
  } finally {
    await repo.cleanup();
  }
});
