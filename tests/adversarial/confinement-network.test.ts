// The network of confined project commands opens only at the user's word: `TUG_VERIFY_NETWORK=1` or
// `verify_network = true` in their own config.toml; a repository's tug.toml or [tool.tug] saying so is ignored, trusted
// or not, with a warning.
import test, { type ExecutionContext } from 'ava';
import { execa } from '../helpers/execa.js';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { patchset, tug } from '../helpers/cli.js';
import { makeRepo } from '../helpers/repo.js';
import { missing } from '../helpers/toolchains.js';

async function requireBwrap(t: ExecutionContext): Promise<boolean> {
  const probe = await execa('bwrap', ['--bind', '/', '/', '--unshare-pid', '--unshare-net', 'true'], { reject: false });
  if (probe.exitCode === 0) return true;
  missing(t, `bwrap missing or unusable here (${probe.stderr || probe.shortMessage}); apt-get install bubblewrap`);
  return false;
}

// A text file change: no Python syntax check, so no interpreter has to be found through a fake $HOME.
const EDIT = patchset([{ file: 'notes.txt', line: 1, col: 1, old_text: 'a', new_text: 'b' }]);
const PROBE = JSON.stringify(['true']);

async function verifyIn(files: Record<string, string>, userConfig: string | null, env: Record<string, string> = {}) {
  const repo = await makeRepo({ 'notes.txt': 'a\n', ...files });
  const home = await mkdtemp(path.join(os.tmpdir(), 'tug-network-home-'));
  if (userConfig !== null) {
    await mkdir(path.join(home, '.config', 'tug'), { recursive: true });
    await writeFile(path.join(home, '.config', 'tug', 'config.toml'), userConfig);
  }
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'tests', '--test-command', PROBE, '--json'], {
    env: { HOME: home, XDG_CONFIG_HOME: '', TUG_DAEMON_AUTOSTART: '0', ...env },
    input: EDIT,
  });
  await rm(home, { recursive: true, force: true });
  await repo.cleanup();
  return run;
}

test('verify_network = true in the user config opens the network to verification; without it, none', async (t) => {
  if (!(await requireBwrap(t))) return;
  const open = await verifyIn({}, 'verify_network = true\n');
  t.is(open.exitCode, 0, open.stdout + open.stderr);
  t.like(open.json.verification.isolation, { confinement: 'bwrap', network: true });
  const closed = await verifyIn({}, 'verify_network = false\n');
  t.like(closed.json.verification.isolation, { confinement: 'bwrap', network: false });
  const env = await verifyIn({}, null, { TUG_VERIFY_NETWORK: '1' });
  t.like(env.json.verification.isolation, { network: true });
  t.false(open.json.warnings.some((w: { code: string }) => w.code === 'UnknownConfigKey'), 'the key is known');
});

test("a repository's verify_network is ignored with a warning, in tug.toml and in [tool.tug]", async (t) => {
  if (!(await requireBwrap(t))) return;
  const layouts: Array<Record<string, string>> = [{ 'tug.toml': 'verify_network = true\n' }, { 'pyproject.toml': '[tool.tug]\nverify_network = true\n' }];
  for (const files of layouts) {
    const run = await verifyIn(files, null);
    t.is(run.exitCode, 0, run.stdout + run.stderr);
    t.like(run.json.verification.isolation, { confinement: 'bwrap', network: false });
    const warning = run.json.warnings.find((w: { code: string; details?: { key?: string } }) => w.details?.key === 'verify_network');
    t.is(warning?.code, 'UntrustedSetting', JSON.stringify(run.json.warnings));
    t.regex(warning.message, /only your own config/);
  }
});

test('a verify_network that is not a boolean is InvalidConfig naming the user config', async (t) => {
  if (!(await requireBwrap(t))) return;
  const run = await verifyIn({}, 'verify_network = "yes"\n');
  t.is(run.exitCode, 2, run.stdout);
  t.like(run.json.error, { code: 'InvalidConfig', details: { key: 'verify_network' } });
});
