// The daemon's limits as a policy: which helpers go first (idle repositories, rust-analyzers by recency, then memory).
import test from 'ava';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { enforceLimits, measure, type RepoUse } from '../lib/daemon/budget.js';
import { DEFAULT_DAEMON_SETTINGS } from '../lib/daemon/settings.js';
import { liveHelpers, trackHelper } from '../lib/ops/resources.js';
import { makeRepo } from './helpers/repo.js';

/** A registered helper that only records being stopped: rust-analyzers cost ~380 MB each, the policy is what is tested here. */
function helper(kind: 'python_worker' | 'rust_analyzer', root: string, stopped: string[], name: string) {
  let alive = true;
  trackHelper({
    kind,
    scope: path.join(root, '.git', 'tug', 'workers'),
    alive: () => alive,
    stop: async () => {
      alive = false;
      stopped.push(name);
    },
  });
}

test.serial('rust-analyzers beyond the allowed count go least recently used first; idle repositories lose everything', async (t) => {
  const repos = await Promise.all([0, 1, 2, 3].map(() => makeRepo({ 'a.txt': 'x\n' })));
  const git = repos.map((r) => realpathSync(path.join(r.root, '.git')));
  const now = Date.now();
  const use = (minutesAgo: number): RepoUse => ({ lastUsed: now - minutesAgo * 60_000, requests: 1, active: 0 });
  // Repository 0 was used 1 minute ago, 1 three minutes ago, 2 two minutes ago, 3 an hour ago (past the idle limit).
  const uses = new Map<string, RepoUse>([
    [git[0]!, use(1)],
    [git[1]!, use(3)],
    [git[2]!, use(2)],
    [git[3]!, use(60)],
  ]);
  const stopped: string[] = [];
  repos.forEach((r, i) => helper('rust_analyzer', r.root, stopped, `ra${i}`));
  helper('python_worker', repos[3]!.root, stopped, 'py3');
  const evicted = await enforceLimits(uses, { ...DEFAULT_DAEMON_SETTINGS, memoryBytes: 2 ** 40 }, now);
  t.deepEqual(stopped.sort(), ['py3', 'ra1', 'ra3'], 'the idle repository, then the least recently used of three rust-analyzers');
  t.deepEqual(liveHelpers().filter((h) => h.kind === 'rust_analyzer').length, 2);
  t.false(uses.has(git[3]!), 'the idle repository is forgotten');
  t.is(evicted.length, 3, evicted.join('; '));
  t.true(evicted.some((line) => line.includes('more than 2 rust-analyzers')));
  await Promise.all(liveHelpers().map((h) => h.stop()));
  await Promise.all(repos.map((r) => r.cleanup()));
});

test.serial('memory is measured from /proc: the process itself counts, and over budget the in-memory caches are dropped', async (t) => {
  const memory = measure(DEFAULT_DAEMON_SETTINGS);
  t.true(memory.daemon_bytes > 10 * 2 ** 20, 'this process is resident');
  t.is(memory.budget_bytes, 300 * 2 ** 20, 'the default budget is 300 MB');
  const evicted = await enforceLimits(new Map(), { ...DEFAULT_DAEMON_SETTINGS, memoryBytes: 1 }, Date.now());
  t.deepEqual(evicted, ['in-memory caches: over the memory budget'], 'nothing else was left to end');
});

test.serial('over the memory budget by garbage alone, a collection keeps every warm helper', async (t) => {
  // The daemon runs with --expose-gc; an ava worker gets the same function this way.
  setFlagsFromString('--expose-gc');
  const had = (globalThis as { gc?: () => void }).gc;
  (globalThis as { gc?: () => void }).gc = runInNewContext('gc') as () => void;
  const repo = await makeRepo({ 'a.txt': 'x\n' });
  const git = realpathSync(path.join(repo.root, '.git'));
  let stopped = false;
  trackHelper({ kind: 'typescript_project', scope: repo.root, alive: () => !stopped, stop: async () => void (stopped = true) });
  try {
    const before = measure(DEFAULT_DAEMON_SETTINGS).daemon_bytes;
    // 200 MB written (resident) and let go: what warm TypeScript calls leave behind until the heap collects it.
    let garbage: Buffer[] | undefined = Array.from({ length: 20 }, () => Buffer.alloc(10 * 2 ** 20, 1));
    t.true(measure(DEFAULT_DAEMON_SETTINGS).daemon_bytes > before + 150 * 2 ** 20, 'the garbage is resident');
    garbage = undefined;
    const settings = { ...DEFAULT_DAEMON_SETTINGS, memoryBytes: before + 100 * 2 ** 20 };
    const evicted = await enforceLimits(new Map([[git, { lastUsed: Date.now(), requests: 1, active: 0 }]]), settings, Date.now());
    t.deepEqual(evicted, [], 'nothing let go');
    t.false(stopped, 'the TypeScript project is still warm');
    t.true(measure(settings).total_bytes <= settings.memoryBytes, 'within the budget after the collection');
    t.is(garbage, undefined);
  } finally {
    stopped = true;
    (globalThis as { gc?: () => void }).gc = had;
    await repo.cleanup();
  }
});

test('the socket is per user: under $XDG_RUNTIME_DIR/tug, else $TMPDIR/tug-<uid>, in a directory only the user can enter', async (t) => {
  const { socketPath } = await import('../lib/daemon/address.js');
  const { mkdtemp, rm, stat } = await import('node:fs/promises');
  const os = await import('node:os');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tug-addr-'));
  t.is(socketPath({ XDG_RUNTIME_DIR: dir }), path.join(dir, 'tug', 'daemon.sock'));
  t.is(socketPath({ TMPDIR: dir }), path.join(dir, `tug-${os.userInfo().uid}`, 'daemon.sock'));
  t.is(socketPath({ XDG_RUNTIME_DIR: 'relative', TMPDIR: dir }), path.join(dir, `tug-${os.userInfo().uid}`, 'daemon.sock'), 'a relative runtime dir is ignored');
  socketPath({ XDG_RUNTIME_DIR: dir }, true);
  t.is((await stat(path.join(dir, 'tug'))).mode & 0o777, 0o700);
  await rm(dir, { recursive: true, force: true });
});
