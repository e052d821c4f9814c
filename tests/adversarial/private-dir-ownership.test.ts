// Sandboxes, scratch files and the daemon socket live in a per-user 0700 directory that tug checks before use; a
// directory or socket another user controls is refused, never followed or connected to.
import test from 'ava';
import { chmod, chown, lstat, mkdir, mkdtemp, readdir, realpath, rm, symlink } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { makeRepo, repoState } from '../helpers/repo.js';
import { patchset, tug } from '../helpers/cli.js';

const EDIT = patchset([{ file: 'a.py', line: 1, col: 5, old_text: 'foo', new_text: 'bar' }]);
const SOURCE = { 'a.py': 'def foo():\n    return 1\n' };
const OTHER_UID = 12345;

async function runtimeDir(t: { teardown: (f: () => Promise<void>) => void }): Promise<string> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'tug-xdg-')));
  await chmod(dir, 0o700);
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('sandboxes and scratch files are made inside $XDG_RUNTIME_DIR/tug, created 0700', async (t) => {
  const repo = await makeRepo(SOURCE);
  t.teardown(() => repo.cleanup());
  const xdg = await runtimeDir(t);
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'syntax', '--apply'], { input: EDIT, env: { XDG_RUNTIME_DIR: xdg } });
  t.is(run.exitCode, 0, run.stdout + run.stderr);
  const info = await lstat(path.join(xdg, 'tug'));
  t.true(info.isDirectory());
  t.is(info.mode & 0o777, 0o700);
  t.deepEqual((await readdir(path.join(xdg, 'tug'))).sort(), ['scratch', 'tug-sandboxes'], 'sandboxes and the scratch files of the apply step');
  t.deepEqual(await readdir(path.join(xdg, 'tug', 'scratch')), [], 'scratch files are removed after use');
  // The sandbox is a checkout with a git dir of its own there, not a worktree of the user's repository.
  const [session] = await readdir(path.join(xdg, 'tug', 'tug-sandboxes'));
  t.true((await lstat(path.join(xdg, 'tug', 'tug-sandboxes', session!, 'shared', '.git'))).isDirectory());
  const worktrees = await repo.git('worktree', 'list', '--porcelain');
  t.false(worktrees.includes(path.join(xdg, 'tug', 'tug-sandboxes')), worktrees);
});

test('without XDG_RUNTIME_DIR the private dir is $TMPDIR/tug-<uid>', async (t) => {
  const repo = await makeRepo(SOURCE);
  t.teardown(() => repo.cleanup());
  const tmp = await runtimeDir(t);
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'syntax'], { input: EDIT, env: { XDG_RUNTIME_DIR: '', TMPDIR: tmp } });
  t.is(run.exitCode, 0, run.stdout + run.stderr);
  const info = await lstat(path.join(tmp, `tug-${process.getuid!()}`));
  t.is(info.mode & 0o777, 0o700);
});

test('a private dir that is open to others, owned by another user, or a symlink is refused with UnsafePath', async (t) => {
  const repo = await makeRepo(SOURCE);
  t.teardown(() => repo.cleanup());
  const before = await repoState(repo);
  const setups: Array<[string, (dir: string) => Promise<void>]> = [
    ['mode 777', async (dir) => {
      await mkdir(dir);
      await chmod(dir, 0o777);
    }],
    ['another owner', async (dir) => {
      await mkdir(dir, { mode: 0o700 });
      await chown(dir, OTHER_UID, OTHER_UID);
    }],
    ['a symlink', async (dir) => {
      const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'tug-elsewhere-'));
      t.teardown(() => rm(elsewhere, { recursive: true, force: true }));
      await chmod(elsewhere, 0o700);
      await symlink(elsewhere, dir);
    }],
  ];
  for (const [name, setup] of setups) {
    const xdg = await runtimeDir(t);
    await setup(path.join(xdg, 'tug'));
    const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'syntax', '--apply'], { input: EDIT, env: { XDG_RUNTIME_DIR: xdg } });
    t.is(run.json?.error?.code, 'UnsafePath', `${name}: ${run.stdout}${run.stderr}`);
    t.is(run.json.error.details.path, path.join(xdg, 'tug'));
  }
  t.is(await repoState(repo), before);
});

test('the daemon client does not connect to a socket another user owns', async (t) => {
  const repo = await makeRepo(SOURCE);
  t.teardown(() => repo.cleanup());
  const xdg = await runtimeDir(t);
  await mkdir(path.join(xdg, 'tug'), { mode: 0o700 });
  // The one daemon of the user listens here (lib/daemon/address.ts socketPath).
  const socket = path.join(xdg, 'tug', 'daemon.sock');
  let connections = 0;
  const impostor = net.createServer((connection) => {
    connections += 1;
    connection.end(`${JSON.stringify({ out: 'impostor\n', exit: 0 })}\n`);
  });
  await new Promise<void>((resolve) => impostor.listen(socket, resolve));
  t.teardown(() => new Promise<void>((resolve) => impostor.close(() => resolve())));
  await chown(socket, OTHER_UID, OTHER_UID);
  const run = await tug(repo.root, ['snapshot'], { env: { XDG_RUNTIME_DIR: xdg, TUG_DAEMON_AUTOSTART: '0' } });
  t.is(run.exitCode, 0, run.stdout + run.stderr);
  t.is(run.json?.status, 'ok', 'answered by tug itself');
  t.is(connections, 0);
  t.regex(run.stderr, /not using the daemon socket .*owned by uid 12345/);
});
