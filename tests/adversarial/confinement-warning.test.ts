// A weaker sandbox is never silent: without bubblewrap, run_command's result says which confinement applied and a
// WeakConfinement warning names what was not confined; `tug doctor` reports bubblewrap. TUG_ISOLATION forces the fallback.
import test from 'ava';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { tug } from '../helpers/cli.js';
import { makeRepo } from '../helpers/repo.js';

const env = { XDG_CONFIG_HOME: await mkdtemp(path.join(os.tmpdir(), 'tug-confinement-config-')) };

for (const isolation of ['unshare', 'none']) {
  test(`run_command under TUG_ISOLATION=${isolation} says what is not confined`, async (t) => {
    const repo = await makeRepo({ 'a.py': 'x = 1\n' });
    const run = await tug(repo.root, ['tool', 'run_command', '--args', JSON.stringify({ command: 'echo ran' })], { env: { ...env, TUG_ISOLATION: isolation } });
    t.is(run.exitCode, 0, run.stdout + run.stderr);
    t.is(run.json.stdout.trim(), 'ran');
    t.not(run.json.isolation.confinement, 'bwrap');
    t.false(run.json.isolation.repository_read_only);
    t.true(run.json.isolation.network);
    const warning = (run.json.warnings ?? []).find((w: { code: string }) => w.code === 'WeakConfinement');
    t.truthy(warning, JSON.stringify(run.json));
    t.regex(warning.message, /repository was writable/);
    t.regex(warning.message, /network was on/);
    t.regex(warning.message, /bubblewrap/);
    t.deepEqual(warning.details.not_confined, ['the repository was writable', 'the network was on']);
    t.is(warning.details.confinement, run.json.isolation.confinement);
    await repo.cleanup();
  });
}

test('tug doctor reports bubblewrap, and as missing (with the fix) when run_command could not use it', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const run = await tug(repo.root, ['doctor'], { env: { ...env, TUG_ISOLATION: 'unshare' } });
  t.is(run.exitCode, 0, run.stdout);
  const bubblewrap = run.json.checks.find((c: { name: string }) => c.name === 'bubblewrap');
  t.truthy(bubblewrap, JSON.stringify(run.json.checks.map((c: { name: string }) => c.name)));
  t.is(bubblewrap.status, 'missing');
  t.regex(bubblewrap.fix, /apt-get install bubblewrap/);
  t.regex(bubblewrap.needed_for, /writable/);
  t.true(run.json.missing.includes('bubblewrap'));
  await repo.cleanup();
});
