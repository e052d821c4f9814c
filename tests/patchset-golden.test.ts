// Data-driven kernel cases: fixtures/patchsets/<case>/ run through the real CLI and compared with golden/patchsets/<case>.
import test, { type ExecutionContext } from 'ava';
import { cp, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { makeRepo } from './helpers/repo.js';
import { tug } from './helpers/cli.js';
import { expectGolden, PROJECT_ROOT } from './helpers/golden.js';

const FIXTURES = path.join(PROJECT_ROOT, 'fixtures', 'patchsets');
const manifest = JSON.parse(await readFile(path.join(FIXTURES, 'manifest.json'), 'utf8')) as { cases: string[] };

test('the manifest lists every case directory', async (t) => {
  const dirs = (await readdir(FIXTURES, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  t.deepEqual(manifest.cases, dirs);
});

for (const name of manifest.cases) {
  test(`patchset case ${name}`, async (t) => check(t, name));
}

async function check(t: ExecutionContext, name: string): Promise<void> {
  const repo = await makeRepo({});
  await cp(path.join(FIXTURES, name, 'repo'), repo.root, { recursive: true });
  await repo.git('add', '-A');
  await repo.git('commit', '-q', '-m', `fixture ${name}`);
  const input = await readFile(path.join(FIXTURES, name, 'patchset.json'), 'utf8');
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'none', '--apply'], { input });
  t.is(run.exitCode, 0, run.stdout);
  await expectGolden(t, `patchsets/${name}.json`, `${run.stdout.replaceAll(repo.root, '<workspace>')}\n`);
  await expectGolden(t, `patchsets/${name}.patch`, run.json.patch.unified_diff);
  const diffOfCommit = await repo.git('diff', '--no-ext-diff', '--no-color', run.json.git.snapshot_commit, run.json.git.commit);
  t.is(await repo.git('diff', '--no-ext-diff', '--no-color'), diffOfCommit, 'the applied working tree equals the commit');
  await repo.cleanup();
}
