// The trust model: a repository's own files cannot make tug run a program or widen the environment until the user runs `tug trust`.
import test from 'ava';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { symbolsQuery } from '../../lib/ops/workspace/queries.js';
import { tug } from '../helpers/cli.js';
import { makeRepo, type TestRepo, tempDir } from '../helpers/repo.js';
import { call } from '../helpers/tools.js';

const SOURCE = { 'app.py': 'def f():\n    return 1\n\nprint(f())\n' };

/** Each test gets its own user config dir and a directory for marker files that a hostile setting would create. */
async function setup(files: (marks: string) => Record<string, string>): Promise<{ repo: TestRepo; config: string; marks: string; env: Record<string, string> }> {
  const config = await tempDir('tug-trust-config-');
  const marks = await tempDir('tug-trust-marks-');
  const repo = await makeRepo({ ...SOURCE, ...files(marks) });
  return { repo, config, marks, env: { XDG_CONFIG_HOME: config } };
}

const touch = (marks: string, name: string) => JSON.stringify(['sh', '-c', `touch ${path.join(marks, name)}`]);
const warningsOf = (run: { json: any }) => (run.json?.warnings ?? []) as Array<{ code: string; message: string }>;

test('an untrusted repository cannot choose the test command; `tug trust` lets it, and a changed setting needs trust again', async (t) => {
  const { repo, env, marks, config } = await setup((m) => ({ 'tug.toml': `verify = "tests"\ntest_command = ${touch(m, 'ran')}\n` }));
  const untrusted = await tug(repo.root, ['rename', 'app.py:1:5', 'g'], { env });
  t.is(untrusted.exitCode, 0, untrusted.stdout + untrusted.stderr);
  t.false(existsSync(path.join(marks, 'ran')), 'the repository-chosen command did not run');
  t.deepEqual(untrusted.json.verification.checks.map((c: { name: string }) => c.name), ['python-syntax']);
  const warned = warningsOf(untrusted).filter((w) => w.code === 'UntrustedSetting');
  t.deepEqual(warned.map((w) => /tug\.toml (verify|test_command) is ignored.*`tug trust`/.test(w.message)), [true, true], JSON.stringify(warned));

  const status = await tug(repo.root, ['trust', '--status'], { env });
  t.is(status.json.trust, 'untrusted');
  t.deepEqual(status.json.settings.map((s: { key: string }) => s.key), ['test_command', 'verify']);
  const trusted = await tug(repo.root, ['trust', '--confirm'], { env });
  t.is(trusted.exitCode, 0, trusted.stdout);
  t.is(trusted.json.trust, 'trusted');
  t.is(trusted.json.trust_file, path.join(config, 'tug', 'trust.json'));
  t.is((await stat(path.join(config, 'tug'))).mode & 0o777, 0o700);
  t.is((await stat(trusted.json.trust_file)).mode & 0o777, 0o600);
  t.true((await readFile(trusted.json.trust_file, 'utf8')).includes(repo.root));

  const run = await tug(repo.root, ['rename', 'app.py:1:5', 'h'], { env });
  t.is(run.exitCode, 0, run.stdout);
  t.true(existsSync(path.join(marks, 'ran')), 'trusted: the configured test command ran');
  t.deepEqual(warningsOf(run).filter((w) => w.code === 'UntrustedSetting'), []);

  await repo.write('tug.toml', `verify = "tests"\ntest_command = ${touch(marks, 'changed')}\n`);
  const changed = await tug(repo.root, ['rename', 'app.py:1:5', 'k'], { env });
  t.is(changed.exitCode, 0, changed.stdout);
  t.false(existsSync(path.join(marks, 'changed')), 'a changed setting is not trusted');
  t.true(warningsOf(changed).some((w) => /changed since you trusted/.test(w.message)));
  t.is((await tug(repo.root, ['trust', '--status'], { env })).json.trust, 'changed');
  await tug(repo.root, ['trust', '--confirm'], { env });
  t.is((await tug(repo.root, ['trust', '--revoke'], { env })).json.trust, 'untrusted');
  t.is((await tug(repo.root, ['trust', '--revoke', '--status'], { env })).json.error.code, 'InvalidArgument');
  await repo.cleanup();
});

test('user config, environment and flags always apply, trusted or not', async (t) => {
  const { repo, env, marks, config } = await setup(() => ({}));
  await mkdir(path.join(config, 'tug'), { recursive: true });
  await writeFile(path.join(config, 'tug', 'config.toml'), `verify = "tests"\ntest_command = ${touch(marks, 'user')}\n`);
  const run = await tug(repo.root, ['rename', 'app.py:1:5', 'g'], { env });
  t.is(run.exitCode, 0, run.stdout + run.stderr);
  t.true(existsSync(path.join(marks, 'user')), 'the user config is the user\'s choice');
  const flag = await tug(repo.root, ['verify', '--verify', 'tests', '--test-command', touch(marks, 'flag')], { env });
  t.is(flag.exitCode, 0, flag.stdout);
  t.true(existsSync(path.join(marks, 'flag')));
  await repo.cleanup();
});

test('a repository cannot widen the environment of run_command unless trusted; the user config can', async (t) => {
  const { repo, config } = await setup(() => ({ 'tug.toml': '[run_command]\nallow_env = ["GITHUB_TOKEN"]\n' }));
  const saved = { ...process.env };
  Object.assign(process.env, { XDG_CONFIG_HOME: config, GITHUB_TOKEN: 'secret-value', MY_SETTING: 'mine' });
  try {
    const untrusted = await call(repo, 'run_command', { command: 'env' });
    t.false(untrusted.stdout.includes('secret-value'));
    t.true(untrusted.warnings.some((w: { code: string; message: string }) => w.code === 'UntrustedSetting' && /allow_env.*tug trust/.test(w.message)));
    await mkdir(path.join(config, 'tug'), { recursive: true });
    await writeFile(path.join(config, 'tug', 'config.toml'), '[run_command]\nallow_env = ["MY_*"]\n');
    const user = await call(repo, 'run_command', { command: 'env' });
    t.true(user.stdout.includes('MY_SETTING=mine'));
    t.false(user.stdout.includes('secret-value'));
    t.is((await tug(repo.root, ['trust', '--confirm'], { env: { XDG_CONFIG_HOME: config } })).exitCode, 0);
    const trusted = await call(repo, 'run_command', { command: 'env' });
    t.true(trusted.stdout.includes('GITHUB_TOKEN=secret-value'), 'trusted: the repository setting applies');
    t.is(trusted.warnings, undefined);
  } finally {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  }
  await repo.cleanup();
});

test('read-only operations never run an interpreter the repository names, trusted or not', async (t) => {
  const { repo, env, marks, config } = await setup((m) => ({
    'evil-python': `#!/bin/sh\ntouch ${path.join(m, 'python-ran')}\nexec python3 "$@"\n`,
    'tug.toml': '[python]\npython_path = "evil-python"\n',
  }));
  await chmod(path.join(repo.root, 'evil-python'), 0o755);
  const readOnly = async () => {
    const analyze = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'app.py:1:5', '--to', 'g'], { env });
    t.is(analyze.exitCode, 0, analyze.stdout + analyze.stderr);
    for (const args of [['snapshot'], ['session', 'status'], ['log']]) t.is((await tug(repo.root, args, { env })).exitCode, 0, args.join(' '));
    const saved = process.env['XDG_CONFIG_HOME'];
    process.env['XDG_CONFIG_HOME'] = config;
    try {
      t.is((await symbolsQuery(repo.root, 'app.py')).status, 'ok');
    } finally {
      if (saved === undefined) delete process.env['XDG_CONFIG_HOME'];
      else process.env['XDG_CONFIG_HOME'] = saved;
    }
    t.false(existsSync(path.join(marks, 'python-ran')));
  };
  await readOnly();
  t.is((await tug(repo.root, ['trust', '--confirm'], { env })).exitCode, 0);
  await readOnly();
  const verify = await tug(repo.root, ['verify'], { env });
  t.is(verify.exitCode, 0, verify.stdout);
  t.true(existsSync(path.join(marks, 'python-ran')), 'trusted: verification uses the configured interpreter');
  await repo.cleanup();
});

test('tug trust is not an agent tool: neither MCP nor the tool registry can trust a repository', async (t) => {
  const { repo, config } = await setup(() => ({}));
  const saved = process.env['XDG_CONFIG_HOME'];
  process.env['XDG_CONFIG_HOME'] = config;
  try {
    for (const name of ['trust', 'tug_trust']) t.is((await call(repo, name, {})).code, 'InvalidArgument', name);
  } finally {
    if (saved === undefined) delete process.env['XDG_CONFIG_HOME'];
    else process.env['XDG_CONFIG_HOME'] = saved;
  }
  t.false(existsSync(path.join(config, 'tug', 'trust.json')));
  await repo.cleanup();
});
