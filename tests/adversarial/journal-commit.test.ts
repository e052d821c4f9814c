// A --commit that fails after it started leaves the repository exactly as it was: locks held by other git processes,
// a lock appearing mid-way, a full disk; and nothing half-done is "recovered" over the user's later edits.
import test from 'ava';
import { execa } from '../helpers/execa.js';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { tug, TUG_BIN } from '../helpers/cli.js';
import { COMMIT, holdRefLock, RENAME, SOURCE, tugPausedAt } from '../helpers/fault.js';
import { makeRepo, repoState, type TestRepo } from '../helpers/repo.js';


async function leftovers(repo: TestRepo): Promise<string[]> {
  const temps = (await readdir(repo.root)).filter((n) => n.includes('.tug-'));
  const journal = existsSync(path.join(repo.root, '.git', 'tug', 'apply-journal.json')) ? ['apply-journal.json'] : [];
  const index = (await readdir(path.join(repo.root, '.git'))).filter((n) => n.startsWith('index.tug-'));
  return [...temps, ...journal, ...index];
}

/** After a refused --commit: same refs, index, HEAD and files; no journal or temp left; the next call recovers nothing. */
async function assertUntouched(t: any, repo: TestRepo, before: string): Promise<void> {
  t.is(await repoState(repo), before, 'refs, index, HEAD and files are as before');
  t.deepEqual(await leftovers(repo), [], 'no temp file, prepared index or journal left behind');
  await repo.write('a.py', 'def f():\n    return 2  # the user edits after the failure\n');
  const next = await tug(repo.root, ['verify', '--verify', 'none']);
  t.is(next.exitCode, 0, next.stdout);
  t.false(JSON.stringify(next.json.warnings ?? []).includes('InterruptedApplyRecovered'), 'nothing to recover');
  t.is(await repo.readText('a.py'), 'def f():\n    return 2  # the user edits after the failure\n', 'the edit survives');
}

test('a branch lock held by another git process: GitLocked, nothing written, the lock is not touched', async (t) => {
  const repo = await makeRepo(SOURCE);
  const head = await repo.git('rev-parse', 'HEAD');
  const before = await repoState(repo);
  const holder = await holdRefLock(repo.root, 'refs/heads/main', head);
  const run = await tug(repo.root, COMMIT, { input: RENAME });
  t.is(run.exitCode, 4, run.stdout);
  t.is(run.json.error.code, 'GitLocked');
  t.is(run.json.error.details.lock_file, path.join(repo.root, '.git', 'refs', 'heads', 'main.lock'));
  t.true(existsSync(path.join(repo.root, '.git', 'refs', 'heads', 'main.lock')), 'a lock tug did not create stays');
  await holder.release();
  await assertUntouched(t, repo, before);
  await repo.cleanup();
});

test('index.lock present: GitLocked naming it, nothing written, the lock is not deleted', async (t) => {
  const repo = await makeRepo(SOURCE);
  const before = await repoState(repo);
  await writeFile(path.join(repo.root, '.git', 'index.lock'), '');
  const run = await tug(repo.root, COMMIT, { input: RENAME });
  t.is(run.exitCode, 4, run.stdout);
  t.is(run.json.error.code, 'GitLocked');
  t.is(run.json.error.details.lock_file, path.join(repo.root, '.git', 'index.lock'));
  t.true(existsSync(path.join(repo.root, '.git', 'index.lock')));
  await execa('rm', [path.join(repo.root, '.git', 'index.lock')]);
  await assertUntouched(t, repo, before);
  await repo.cleanup();
});

test('a merge in progress refuses --commit before any write', async (t) => {
  const repo = await makeRepo(SOURCE);
  const before = await repoState(repo);
  await writeFile(path.join(repo.root, '.git', 'MERGE_HEAD'), `${await repo.git('rev-parse', 'HEAD')}\n`);
  const run = await tug(repo.root, COMMIT, { input: RENAME });
  t.is(run.exitCode, 4, run.stdout);
  t.is(run.json.error.details.operation_in_progress, 'merge');
  await execa('rm', [path.join(repo.root, '.git', 'MERGE_HEAD')]);
  await assertUntouched(t, repo, before);
  await repo.cleanup();
});

for (const [what, lock] of [['branch', 'refs/heads/main'], ['index', 'index']] as const) {
  test(`a ${what} lock taken while tug prepares: everything rolled back, the tug branch too`, async (t) => {
    const repo = await makeRepo(SOURCE);
    const head = await repo.git('rev-parse', 'HEAD');
    const before = await repoState(repo);
    const paused = await tugPausedAt(repo.root, 'apply-after-temp', COMMIT, RENAME);
    const holder = lock === 'index' ? null : await holdRefLock(repo.root, lock, head);
    if (lock === 'index') await writeFile(path.join(repo.root, '.git', 'index.lock'), '');
    const run = await paused.resume();
    t.is(run.exitCode, 4, run.stdout);
    t.is(run.json.error.code, 'GitLocked');
    t.regex(run.json.error.details.lock_file, lock === 'index' ? /index\.lock$/ : /main\.lock$/);
    await holder?.release();
    if (lock === 'index') await execa('rm', [path.join(repo.root, '.git', 'index.lock')]);
    await assertUntouched(t, repo, before);
    await repo.cleanup();
  });
}

test('a disk that fills up while tug prepares leaves the repository as it was', async (t) => {
  const probe = await execa('unshare', ['-rm', 'true'], { reject: false });
  if (probe.exitCode !== 0) {
    const message = `needs a private mount namespace for a small tmpfs (unshare -rm): ${probe.stderr}`;
    if (process.env['CI']) t.fail(message);
    else t.log(`SKIPPED (not CI): ${message}`);
    if (!process.env['CI']) t.pass();
    return;
  }
  const faults = await mkdtemp(path.join(os.tmpdir(), 'tug-fault-'));
  const mount = await mkdtemp(path.join(os.tmpdir(), 'tug-full-'));
  // Everything runs inside one private mount namespace: a 3 MB tmpfs holds the repository and its session dir.
  const script = `
set -e
mount -t tmpfs -o size=3m none "$MNT"
cd "$MNT"
git init -q -b main . && git config user.name T && git config user.email t@e && git config core.autocrlf false
printf 'def f():\\n    return 1\\n' > a.py && printf 'from a import f\\nf()\\n' > b.py
git add -A && git commit -qm initial
state() { git for-each-ref; git --no-optional-locks status --porcelain --untracked-files=all; git ls-files -s; cat a.py b.py; }
state > "$FAULTS/before"
printf '%s' "$PATCH" | TUG_FAULT_INJECT=apply-after-temp:pause TUG_FAULT_DIR="$FAULTS" node "$TUG" ${COMMIT.join(' ')} > "$FAULTS/out" &
pid=$!
for i in $(seq 600); do [ -e "$FAULTS/apply-after-temp.reached" ] && break; sleep 0.05; done
dd if=/dev/zero of=fill bs=64k 2>/dev/null || true
touch "$FAULTS/apply-after-temp.go"
wait $pid || echo "exit $?" > "$FAULTS/exit"
rm fill
state > "$FAULTS/after"
ls -a . .git .git/tug > "$FAULTS/files"
`;
  const run = await execa('unshare', ['-rm', 'bash', '-c', script], {
    reject: false,
    env: { MNT: mount, FAULTS: faults, TUG: TUG_BIN, PATCH: RENAME, TUG_DAEMON_AUTOSTART: '0', TUG_LOCK_TIMEOUT_MS: '2000' },
  });
  t.is(run.exitCode, 0, run.stderr);
  const read = (name: string) => execa('cat', [path.join(faults, name)]).then((r) => r.stdout);
  const out = JSON.parse(await read('out'));
  t.is(out.status, 'error');
  t.true(['WriteError', 'SessionNotWritable'].includes(out.error.code), JSON.stringify(out.error));
  t.is(await read('after'), await read('before'), 'refs, index and files are as before');
  t.notRegex(await read('files'), /\.tug-|apply-journal|index\.tug/, 'no temp, journal or prepared index left');
  await rm(faults, { recursive: true, force: true });
  await rm(mount, { recursive: true, force: true });
});

test('--commit then undo keeps what the user staged meanwhile; branch, index and files return', async (t) => {
  const repo = await makeRepo(SOURCE);
  const head = await repo.git('rev-parse', 'HEAD');
  const run = await tug(repo.root, COMMIT, { input: RENAME });
  t.is(run.exitCode, 0, run.stdout);
  t.is(await repo.git('status', '--porcelain'), '', 'the index follows the moved branch');
  await repo.write('new.py', 'staged = True\n');
  await repo.git('add', 'new.py');
  const undo = await tug(repo.root, ['undo', run.json.undo_token]);
  t.is(undo.exitCode, 0, undo.stdout);
  t.is(await repo.git('rev-parse', 'HEAD'), head);
  t.is(await repo.git('status', '--porcelain'), 'A  new.py', "only the user's staged file differs from HEAD");
  t.is(await repo.readText('a.py'), SOURCE['a.py']);
  await repo.cleanup();
});
