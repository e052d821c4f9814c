// Python renames on the fixture projects through the real CLI, worker and git, compared with golden/python/<case>.
// The cases of one fixture share one copy behind one private daemon (helpers/warm-fixture.ts): the Python worker starts
// once per fixture, not once per case, and the daemon prints what a cold run prints. A fixture with a single case stays a
// cold CLI call on its own copy (a daemon costs more than it saves there), and cold `tug rename` on Python stays covered
// by those and by python-cli, python-layout and the other rename files.
import test from 'ava';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from './helpers/golden.js';
import { checkRenameCase, checkRenameCaseIn, type RenameCase } from './helpers/rename-cases.js';
import { warmFixtures } from './helpers/warm-fixture.js';

const manifest = JSON.parse(await readFile(path.join(PROJECT_ROOT, 'fixtures', 'python', 'manifest.json'), 'utf8')) as { cases: RenameCase[] };
const normalize = (stdout: string) => stdout.replace(/"[^"]*python3?"/g, '"<python>"');

const perFixture = new Map<string, number>();
for (const c of manifest.cases) perFixture.set(c.workspace, (perFixture.get(c.workspace) ?? 0) + 1);
const fixtures = warmFixtures();
test.after.always(() => fixtures.stopAll());
for (const [workspace, cases] of perFixture) if (cases > 1) fixtures.plan('python', workspace, cases);

for (const c of manifest.cases) {
  test(`python ${c.name}`, (t) =>
    perFixture.get(c.workspace)! > 1
      ? fixtures.use('python', c.workspace, ({ repo, env }) => checkRenameCaseIn(t, 'python', c, repo, env, normalize))
      : checkRenameCase(t, 'python', c, normalize));
}
