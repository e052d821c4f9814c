// A full disk is DiskFull (exit 4) naming what could not be written, never InternalError (git could not write an
// object) or a misleading RefUpdateConflict (git could not append to a ref's log); nothing of the user's changes.
import test from 'ava';
import { execa } from '../helpers/execa.js';
import { existsSync } from 'node:fs';
import { rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { tug, TUG_BIN } from '../helpers/cli.js';
import { RENAME, SOURCE } from '../helpers/fault.js';
import { makeRepo, repoState } from '../helpers/repo.js';


test('--commit with a ref log that cannot be appended to (ENOSPC): DiskFull, rolled back, no lock left', async (t) => {
  const repo = await makeRepo(SOURCE);
  // /dev/full answers every write with ENOSPC: git's append to main's reflog fails as on a full disk.
  const log = path.join(repo.root, '.git', 'logs', 'refs', 'heads', 'main');
  await rm(log);
  await symlink('/dev/full', log);
  const before = await repoState(repo);
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--commit', '--verify', 'none'], { input: RENAME });
  t.is(run.exitCode, 4, run.stdout);
  t.is(run.json.error.code, 'DiskFull');
  t.is(run.json.error.details.reason, 'ENOSPC');
  t.regex(run.json.error.details.command, /update-ref refs\/heads\/main/);
  t.is(await repoState(repo), before, 'files, index and branch as before');
  t.false(existsSync(path.join(repo.root, '.git', 'index.lock')));
  await rm(log);
  await repo.cleanup();
});

const BWRAP = ['/usr/bin/bwrap', '/bin/bwrap'].find((candidate) => existsSync(candidate));

/** A shell script run on a 2 MB tmpfs at /full, filled up after the repository is made. */
const SCRIPT = `
set -e
cd /full && git init -q -b main r && cd r
git config user.name a && git config user.email a@b
printf 'def f():\\n    return 1\\n' > a.py && printf 'from a import f\\nf()\\n' > b.py
git add . && git commit -qm init
dd if=/dev/zero of=/full/filler bs=4k 2>/dev/null || true
set +e
for mode in --commit --apply ""; do
  printf '%s' '${RENAME}' | "$TUG" apply-patchset -f - $mode --verify none --session-dir /elsewhere/session
  code=$?; echo; echo "exit=$code"
done
git diff --quiet HEAD; echo "status=$?"
`;

(BWRAP ? test : test.skip)('a repository on a full file system: DiskFull for --commit, --apply and a branch-only run', async (t) => {
  const probe = await execa(BWRAP!, ['--dev-bind', '/', '/', '--size', '2097152', '--tmpfs', '/full', 'true'], { reject: false });
  if (probe.exitCode !== 0) {
    t.log(`bubblewrap cannot mount a tmpfs here: ${probe.stderr}`);
    return t.pass();
  }
  const run = await execa(BWRAP!, ['--dev-bind', '/', '/', '--size', '2097152', '--tmpfs', '/full', '--tmpfs', '/elsewhere', 'bash', '-c', SCRIPT], {
    reject: false,
    env: { TUG: TUG_BIN, TUG_NO_DAEMON: '1', TUG_LOCK_TIMEOUT_MS: '2000' },
    timeout: 240_000,
  });
  const outputs = run.stdout.split(/^exit=.*$/m).slice(0, 3).map((text) => JSON.parse(text));
  t.is(outputs.length, 3, run.stdout + run.stderr);
  t.deepEqual(run.stdout.match(/^exit=.*$/gm), ['exit=4', 'exit=4', 'exit=4']);
  for (const out of outputs) {
    t.is(out.error?.code, 'DiskFull', JSON.stringify(out));
    t.is(out.error.details.reason, 'ENOSPC');
  }
  t.true(run.stdout.endsWith('exit=4\nstatus=0'), `the work tree and index equal HEAD: ${run.stdout.slice(-200)}`);
});
