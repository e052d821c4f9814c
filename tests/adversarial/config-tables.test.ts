// [rust] rust_analyzer_path and [session] session_dir: each takes effect, a flag or the environment outranks it, a
// repository cannot make tug run its rust-analyzer until trusted, and cannot move the session out of its git directory.
import test from 'ava';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { tug } from '../helpers/cli.js';
import { makeRepo } from '../helpers/repo.js';

const CRATE = {
  'Cargo.toml': '[package]\nname = "tiny"\nversion = "0.1.0"\nedition = "2021"\n',
  'src/lib.rs': 'pub fn area() -> u32 {\n    1\n}\n',
};
const PY = { 'app.py': 'def f():\n    return 1\n\nprint(f())\n' };

async function tmp(prefix: string): Promise<string> {
  return realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
}

/** A fake rust-analyzer that leaves a mark when it runs and then fails. */
async function markingBinary(marks: string): Promise<string> {
  const file = path.join(marks, 'rust-analyzer');
  await writeFile(file, `#!/bin/sh\ntouch ${path.join(marks, 'ran')}\nexit 1\n`);
  await chmod(file, 0o755);
  return file;
}

const warnings = (run: { json: any }) => (run.json?.warnings ?? run.json?.error?.details?.warnings ?? []) as Array<{ code: string; message: string }>;

test('a repository-chosen rust_analyzer_path runs only after `tug trust`; the user config and the flag choose it too', async (t) => {
  const config = await tmp('tug-cfg-');
  const marks = await tmp('tug-marks-');
  const binary = await markingBinary(marks);
  const repo = await makeRepo({ ...CRATE, 'tug.toml': `[rust]\nrust_analyzer_path = "${binary}"\n` });
  const env = { XDG_CONFIG_HOME: config, TUG_RA_PATH: '', TUG_DAEMON_AUTOSTART: '0' };
  try {
    const untrusted = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'src/lib.rs:1:8', '--to', 'size'], { env });
    t.false(existsSync(path.join(marks, 'ran')), `an untrusted repository's rust-analyzer did not run: ${untrusted.stdout}`);
    const status = await tug(repo.root, ['trust', '--status'], { env });
    t.deepEqual(status.json.settings.map((s: { key: string }) => s.key), ['rust.rust_analyzer_path']);

    await tug(repo.root, ['trust', '--confirm'], { env });
    const trusted = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'src/lib.rs:1:8', '--to', 'size'], { env });
    t.true(existsSync(path.join(marks, 'ran')), 'trusted: the configured binary was tried');
    t.is(trusted.json.error.code, 'RustAnalyzerNotFound', trusted.stdout);
    t.true(JSON.stringify(trusted.json.error).includes(binary), trusted.stdout);

    // The flag outranks the trusted setting.
    await rm(path.join(marks, 'ran'));
    const flagged = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'src/lib.rs:1:8', '--to', 'size', '--rust-analyzer', '/nonexistent/flag-ra'], { env });
    t.true(JSON.stringify(flagged.json.error).includes('/nonexistent/flag-ra'), flagged.stdout);
    t.false(existsSync(path.join(marks, 'ran')));

    // The user's own config needs no trust.
    await mkdir(path.join(config, 'tug'), { recursive: true });
    const plain = await makeRepo(CRATE);
    await writeFile(path.join(config, 'tug', 'config.toml'), '[rust]\nrust_analyzer_path = "/nonexistent/user-ra"\n');
    const user = await tug(plain.root, ['analyze-impact', 'rename-symbol', '--at', 'src/lib.rs:1:8', '--to', 'size'], { env });
    t.is(user.json.error.code, 'RustAnalyzerNotFound', user.stdout);
    t.true(JSON.stringify(user.json.error).includes('/nonexistent/user-ra'), user.stdout);
    await plain.cleanup();
  } finally {
    await repo.cleanup();
    await rm(config, { recursive: true, force: true });
    await rm(marks, { recursive: true, force: true });
  }
});

test('[session] session_dir: the user config holds one session per repository; a repository moves it only within its git dir', async (t) => {
  const config = await tmp('tug-cfg-');
  const outside = await tmp('tug-outside-');
  const env = { XDG_CONFIG_HOME: config, TUG_SESSION_DIR: '' };
  const repo = await makeRepo(PY);
  try {
    await mkdir(path.join(config, 'tug'), { recursive: true });
    await writeFile(path.join(config, 'tug', 'config.toml'), `[session]\nsession_dir = "${path.join(outside, 'sessions')}"\n`);
    const user = await tug(repo.root, ['session', 'status'], { env });
    t.is(user.exitCode, 0, user.stdout);
    const userDir = user.json.session.path as string;
    t.is(path.dirname(userDir), path.join(outside, 'sessions'));
    t.regex(path.basename(userDir), new RegExp(`^${path.basename(repo.root)}-[0-9a-f]{12}$`));
    t.true(existsSync(path.join(userDir, 'session.json')));

    // TUG_SESSION_DIR outranks the configuration.
    const envDir = await tug(repo.root, ['session', 'status'], { env: { ...env, TUG_SESSION_DIR: 'from-env' } });
    t.is(envDir.json.session.path, path.join(repo.root, 'from-env'));

    // The repository's own file: inside the git dir it applies (no trust needed, it runs nothing).
    await writeFile(path.join(config, 'tug', 'config.toml'), '');
    await repo.write('tug.toml', '[session]\nsession_dir = "tug-alt"\n');
    const inside = await tug(repo.root, ['session', 'status'], { env });
    t.is(inside.json.session.path, path.join(repo.root, '.git', 'tug-alt'));

    // Leaving the git dir, by .., by an absolute path or through a symlink, is ignored with UnsafePath; nothing is written there.
    await symlink(outside, path.join(repo.root, '.git', 'link'));
    for (const escape of ['../../escaped', path.join(outside, 'absolute'), 'link/through-symlink']) {
      await repo.write('tug.toml', `[session]\nsession_dir = "${escape}"\n`);
      const run = await tug(repo.root, ['rename', 'app.py:1:5', `g${escape.length}`], { env });
      t.is(run.exitCode, 0, run.stdout);
      t.true(warnings(run).some((w) => w.code === 'UnsafePath' && w.message.includes('session.session_dir')), run.stdout);
      const status = await tug(repo.root, ['session', 'status'], { env });
      t.is(status.json.session.path, path.join(repo.root, '.git', 'tug'), escape);
    }
    t.false(existsSync(path.join(path.dirname(path.dirname(repo.root)), 'escaped')));
    t.false(existsSync(path.join(outside, 'absolute')));
    t.false(existsSync(path.join(outside, 'through-symlink')));
  } finally {
    await repo.cleanup();
    await rm(config, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  }
});

test('an unknown key in [rust] or [session] is a warning naming the closest known key', async (t) => {
  const config = await tmp('tug-cfg-');
  const repo = await makeRepo({ ...PY, 'tug.toml': '[rust]\nrust_analyser_path = "x"\n\n[session]\nsesion_dir = "y"\n' });
  try {
    const run = await tug(repo.root, ['rename', 'app.py:1:5', 'g'], { env: { XDG_CONFIG_HOME: config } });
    t.is(run.exitCode, 0, run.stdout);
    const unknown = warnings(run).filter((w) => w.code === 'UnknownConfigKey').map((w) => w.message);
    t.true(unknown.some((m) => m.includes('rust.rust_analyser_path') && m.includes('did you mean rust.rust_analyzer_path')), unknown.join('\n'));
    t.true(unknown.some((m) => m.includes('session.sesion_dir') && m.includes('did you mean session.session_dir')), unknown.join('\n'));
  } finally {
    await repo.cleanup();
    await rm(config, { recursive: true, force: true });
  }
});
