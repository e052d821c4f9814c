// run_command (seed run_pty_cmd): a sandbox of the snapshot, never the user's tree; exit codes, timeouts and secrets.
import test from 'ava';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isSecretName, sandboxEnv } from '../lib/verify/sandbox-env.js';
import { makeRepo, repoState } from './helpers/repo.js';
import { call, isToolSuccess } from './helpers/tools.js';
import { tug } from './helpers/cli.js';

// A user config dir of our own (trust records live there), never the real one.
process.env['XDG_CONFIG_HOME'] = await mkdtemp(path.join(os.tmpdir(), 'tug-run-command-test-'));

test('run_command: exit_code 0 and stdout on success, in a sandbox that holds the snapshot (uncommitted files included)', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'committed\n', 'sub/b.txt': 'b\n' });
  await repo.write('a.txt', 'uncommitted\n');
  const before = await repoState(repo);
  const out = await call(repo, 'run_command', { command: 'cat a.txt; pwd; echo made > made.txt; rm sub/b.txt' });
  t.true(isToolSuccess(out), JSON.stringify(out));
  t.is(out.exit_code, 0);
  const [content, cwd] = out.stdout.split('\n');
  t.is(content, 'uncommitted');
  t.not(cwd, repo.root);
  t.false(cwd.startsWith(repo.root));
  t.is(await repoState(repo), before, "the command's writes stay in the sandbox");
  const sub = await call(repo, 'run_pty_cmd', { command: 'ls', cwd: 'sub' });
  t.is(sub.stdout, 'b.txt\n');
  t.is(sub.cwd, 'sub');
  await repo.cleanup();
});

test('run_command: a non-zero exit is a failure with exit_code and error; stderr is kept apart', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'a\n' });
  const out = await call(repo, 'run_command', { command: 'echo out; echo err >&2; exit 3' });
  t.false(isToolSuccess(out));
  t.is(out.exit_code, 3);
  t.is(out.stdout, 'out\n');
  t.is(out.stderr, 'err\n');
  t.regex(out.error, /exited with code 3/);
  await repo.cleanup();
});

test('run_command: the timeout kills the whole process group', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'a\n' });
  const out = await call(repo, 'run_command', { command: 'sleep 300 & sleep 300; echo never', timeout: 1 });
  // A generous guard (a loaded machine is slow); without the kill the call would wait the full 300 s.
  t.true(out.timed_out);
  t.is(out.exit_code, 124);
  t.regex(out.error, /timed out after 1s/);
  t.false(out.stdout.includes('never'));
  await repo.cleanup();
});

test('run_command: variables outside the allowlist are dropped unless tug.toml allows them', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'a\n' });
  const names = ['GITHUB_TOKEN', 'API_KEY', 'CLIENT_SECRET', 'AWS_PROFILE', 'OPENAI_API_BASE', 'ANTHROPIC_MODEL', 'GOOGLE_CLOUD_PROJECT', 'PLAIN_SETTING'];
  for (const name of names) process.env[name] = `value-of-${name}`;
  try {
    const out = await call(repo, 'run_command', { command: 'env' });
    for (const name of names) t.false(out.stdout.includes(`${name}=`), name);
    t.true(out.stdout.includes('TUG_SANDBOX=1'));
    await writeFile(path.join(repo.root, 'tug.toml'), '[run_command]\nallow_env = ["AWS_PROFILE", "GOOGLE_*"]\n');
    t.is((await tug(repo.root, ['trust', '--confirm'])).exitCode, 0, 'allow_env in the repository needs trust');
    const allowed = await call(repo, 'run_command', { command: 'env' });
    t.true(allowed.stdout.includes('AWS_PROFILE=value-of-AWS_PROFILE'));
    t.true(allowed.stdout.includes('GOOGLE_CLOUD_PROJECT='));
    t.false(allowed.stdout.includes('GITHUB_TOKEN='));
    await writeFile(path.join(repo.root, 'tug.toml'), '[run_command]\nallow = ["AWS_PROFILE"]\n');
    // A misspelled key is ignored (with an UnknownConfigKey warning where the result has warnings): nothing is allowed.
    const typo = await call(repo, 'run_command', { command: 'env' });
    t.false(typo.stdout.includes('AWS_PROFILE='), 'a typo in the config key allows nothing');
  } finally {
    for (const name of names) delete process.env[name];
  }
  t.true(isSecretName('my_token'));
  t.false(isSecretName('KEYBOARD'));
  t.deepEqual(sandboxEnv({ A_KEY: '1', GIT_DIR: '/x', B: '2', LANG: 'C' }, []), { env: { LANG: 'C', TUG_SANDBOX: '1' }, dropped: ['A_KEY', 'B', 'GIT_DIR'] });
  await repo.cleanup();
});

test('run_command: bad cwd, a bad ref and missing arguments are errors with exit codes', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'a\n' });
  t.is((await call(repo, 'run_command', { command: 'ls', cwd: '../' })).code, 'InvalidArgument');
  t.is((await call(repo, 'run_command', { command: 'ls', cwd: 'missing' })).code, 'FileNotFound');
  t.is((await call(repo, 'run_command', { command: 'ls', ref: 'nope' })).code, 'InvalidArgument');
  const none = await call(repo, 'run_command', { timeout: 'soon' });
  t.is(none.exit_code, 2);
  t.regex(none.error, /command: required, expected string/);
  t.regex(none.error, /timeout: .*number/);
  await repo.cleanup();
});
