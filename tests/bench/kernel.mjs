// Kernel benchmarks: snapshot of a 20,000-file repo against the bare git recipe, and fresh vs reused sandbox checkouts.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cachedRepo, fmt, git, inProcessTimes, median, prng, row, timed, TUG, withDaemon } from './lib.mjs';

const DIRS = 200;
const FILES_PER_DIR = 100;
const FILE_BYTES = 4250;

function generate(dir) {
  const next = prng(20000);
  const words = ['alpha', 'beta', 'gamma', 'delta', 'value', 'item', 'count', 'index', 'total', 'name'];
  for (let d = 0; d < DIRS; d++) {
    const sub = path.join(dir, `pkg${String(d).padStart(3, '0')}`);
    mkdirSync(sub, { recursive: true });
    for (let f = 0; f < FILES_PER_DIR; f++) {
      let text = '';
      while (text.length < FILE_BYTES) text += `${words[next() % words.length]}_${next() % 1000} = ${next() % 100000}\n`;
      writeFileSync(path.join(sub, `mod${String(f).padStart(3, '0')}.py`), text);
    }
  }
}


function bareRecipe(repo) {
  const index = path.join('/tmp', `tug-bench-index-${process.pid}`);
  const started = process.hrtime.bigint();
  copyFileSync(path.join(repo, '.git', 'index'), index);
  const env = { ...process.env, GIT_INDEX_FILE: index };
  timed('git', ['add', '-A'], { cwd: repo, env });
  const tree = timed('git', ['write-tree'], { cwd: repo, env }).stdout.trim();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  rmSync(index, { force: true });
  return { ms, tree };
}

function userState(repo) {
  return readFileSync(path.join(repo, '.git', 'index')).toString('base64') + git(repo, 'rev-parse', 'HEAD') + git(repo, 'status', '--porcelain');
}

export function snapshotBench(runs) {
  const repo = cachedRepo(`snapshot-${DIRS}x${FILES_PER_DIR}`, generate);
  writeFileSync(path.join(repo, 'pkg000', 'mod000.py'), `changed = ${Date.now()}\n`);
  writeFileSync(path.join(repo, 'untracked.py'), 'fresh = 1\n');
  const size = Number(git(repo, 'count-objects', '-v').match(/size-pack: (\d+)/)?.[1] ?? 0);
  bareRecipe(repo);
  timed(TUG, ['snapshot', '--json'], { cwd: repo });
  const tugTimes = [];
  const fullTimes = [];
  const bareTimes = [];
  for (let i = 0; i < runs; i++) {
    const before = userState(repo);
    const run = timed(TUG, ['snapshot', '--json'], { cwd: repo });
    if (userState(repo) !== before) throw new Error('tug snapshot changed the index, HEAD or status');
    const out = JSON.parse(run.stdout);
    // `-C .` changes nothing but takes the full CLI (yargs, zod, the code-cached bundle), what every other command pays.
    const full = timed(TUG, ['snapshot', '--json', '-C', '.'], { cwd: repo });
    if (full.stdout !== run.stdout) throw new Error('the full CLI printed another snapshot than the lean start');
    const bare = bareRecipe(repo);
    if (out.snapshot_id !== bare.tree) throw new Error(`snapshot ${out.snapshot_id} != bare recipe ${bare.tree}`);
    tugTimes.push(run.ms);
    fullTimes.push(full.ms);
    bareTimes.push(bare.ms);
  }
  const files = Number(JSON.parse(timed(TUG, ['snapshot', '--json'], { cwd: repo }).stdout).file_count);
  // The same operation inside one long-lived process (the MCP server, library users): no Node start-up, no module loading.
  const lib = inProcessTimes('tug_snapshot', { workspace: repo }, runs);
  const daemon = withDaemon(repo, () => {
    const times = [];
    for (let i = 0; i < runs; i++) times.push(timed(TUG, ['snapshot', '--json'], { cwd: repo }).ms);
    return median(times);
  });
  return { repo, files, packKiB: size, tug: median(tugTimes), full: median(fullTimes), bare: median(bareTimes), tugMin: Math.min(...tugTimes), fullMin: Math.min(...fullTimes), bareMin: Math.min(...bareTimes), lib: median(lib), daemon };
}

export function worktreeBench(repo, runs) {
  const file = 'pkg100/mod050.py';
  const firstLine = readFileSync(path.join(repo, file), 'utf8').split('\n')[0];
  const patch = JSON.stringify({ edits: [{ file, line: 1, col: 1, old_text: firstLine.slice(0, 5), new_text: 'XXXXX' }] });
  const dropBranches = () => {
    const refs = git(repo, 'for-each-ref', '--format=%(refname)', 'refs/heads/tug', 'refs/tug');
    for (const ref of refs.split('\n').filter(Boolean)) git(repo, 'update-ref', '-d', ref);
  };
  const once = (mode) => {
    dropBranches();
    const env = { ...process.env, TUG_SANDBOX_MODE: mode };
    const run = timed(TUG, ['apply-patchset', '--file=-', '--verify', 'none', '--json'], { cwd: repo, env, input: patch });
    if (JSON.parse(run.stdout).status !== 'ok') throw new Error(run.stdout);
    return run.ms;
  };
  timed(TUG, ['clean', '--sandboxes', '--json'], { cwd: repo });
  const reuseFirst = once('reuse');
  const fresh = [];
  const reuse = [];
  for (let i = 0; i < runs; i++) {
    fresh.push(once('fresh'));
    reuse.push(once('reuse'));
  }
  dropBranches();
  return { reuseFirst, fresh: median(fresh), reuse: median(reuse) };
}

/** Wall and CPU milliseconds (user + system, GNU time's rusage; NaN without /usr/bin/time) of one cold command. */
function cpuTimed(args, options) {
  const file = path.join(os.tmpdir(), `tug-bench-startup-${process.pid}`);
  if (!existsSync('/usr/bin/time')) return { ms: timed(TUG, args, options).ms, cpu: NaN };
  const { ms } = timed('/usr/bin/time', ['-f', '%U %S', '-o', file, TUG, ...args], options);
  const cpu = readFileSync(file, 'utf8').trim().split('\n').at(-1).split(' ').reduce((sum, x) => sum + Number(x) * 1000, 0);
  rmSync(file, { force: true });
  return { ms, cpu };
}

/**
 * `tug --version`, and a cold analyze-impact on a one-file Python repository, from the startup snapshot and without it
 * (TUG_NO_SNAPSHOT=1: the code-cached bundles), alternating; beside them a bare `node -e 0`.
 */
export function startupBench(runs) {
  const repo = mkdtempSync(path.join(os.tmpdir(), 'tug-bench-startup-repo-'));
  writeFileSync(path.join(repo, 'a.py'), 'def foo():\n    return 1\n\nx = foo()\n');
  git(repo, 'init', '-q');
  git(repo, 'add', '-A');
  git(repo, '-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'commit', '-q', '-m', 'one file');
  const analyze = ['analyze-impact', 'rename-symbol', '--at', 'a.py:1:5', '--to', 'bar', '--json'];
  const env = (snapshot) => ({ cwd: repo, env: { ...process.env, TUG_NO_DAEMON: '1', TUG_DAEMON_AUTOSTART: '0', ...(snapshot ? {} : { TUG_NO_SNAPSHOT: '1' }) } });
  const series = { version: [], versionPlain: [], analyze: [], analyzePlain: [], node: [] };
  // One of each first, so the code cache the plain start reads is written before anything is measured.
  for (const snapshot of [true, false]) cpuTimed(analyze, env(snapshot));
  for (let i = 0; i < runs; i++) {
    series.version.push(cpuTimed(['--version'], env(true)));
    series.versionPlain.push(cpuTimed(['--version'], env(false)));
    series.analyze.push(cpuTimed(analyze, env(true)));
    series.analyzePlain.push(cpuTimed(analyze, env(false)));
    series.node.push({ ms: timed('node', ['-e', '0']).ms, cpu: NaN });
  }
  rmSync(repo, { recursive: true, force: true });
  const summary = (xs) => ({ ms: median(xs.map((x) => x.ms)), cpu: median(xs.map((x) => x.cpu)) });
  return Object.fromEntries(Object.entries(series).map(([key, xs]) => [key, summary(xs)]));
}

export function kernelReport(snapshot, worktree, startup) {
  return [
    `### Snapshot (${snapshot.files} files, one modified, one untracked)`,
    '',
    row(['', 'median', 'min']),
    row(['---', '---', '---']),
    row(['`tug snapshot` (whole process)', fmt(snapshot.tug), fmt(snapshot.tugMin)]),
    row(['bare recipe (cp index + add -A + write-tree)', fmt(snapshot.bare), fmt(snapshot.bareMin)]),
    row(['ratio (target ≤ 3.0×)', `${(snapshot.tug / snapshot.bare).toFixed(2)}×`, `${(snapshot.tugMin / snapshot.bareMin).toFixed(2)}×`]),
    row(['`tug snapshot -C .` (whole process, full CLI)', fmt(snapshot.full), fmt(snapshot.fullMin)]),
    row(['ratio, full CLI', `${(snapshot.full / snapshot.bare).toFixed(2)}×`, `${(snapshot.fullMin / snapshot.bareMin).toFixed(2)}×`]),
    row(['`tug snapshot` with `tug daemon start` running', fmt(snapshot.daemon), '']),
    row(['ratio with the daemon', `${(snapshot.daemon / snapshot.bare).toFixed(2)}×`, '']),
    row(['snapshot operation in a running process (library, MCP server)', fmt(snapshot.lib), '']),
    row(['ratio in-process / bare', `${(snapshot.lib / snapshot.bare).toFixed(2)}×`, '']),
    '',
    '### Sandbox checkout: fresh vs reused (`apply-patchset --verify none`, one edit, same repo)',
    '',
    row(['mode', 'median']),
    row(['---', '---']),
    row(['fresh checkout per run', fmt(worktree.fresh)]),
    row(['reused session checkout, first run (creates it)', fmt(worktree.reuseFirst)]),
    row(['reused session checkout, steady state', fmt(worktree.reuse)]),
    row(['ratio fresh / reused', `${(worktree.fresh / worktree.reuse).toFixed(2)}×`]),
    '',
    '### CLI startup (from the startup snapshot, and without it: `TUG_NO_SNAPSHOT=1`)',
    '',
    row(['', 'wall, median', 'CPU, median']),
    row(['---', '---', '---']),
    row(['`tug --version`', fmt(startup.version.ms), fmt(startup.version.cpu)]),
    row(['`tug --version` without the snapshot', fmt(startup.versionPlain.ms), fmt(startup.versionPlain.cpu)]),
    row(['cold `analyze-impact` on a one-file repository', fmt(startup.analyze.ms), fmt(startup.analyze.cpu)]),
    row(['the same without the snapshot', fmt(startup.analyzePlain.ms), fmt(startup.analyzePlain.cpu)]),
    row(['ratio with / without, analyze-impact', `${(startup.analyze.ms / startup.analyzePlain.ms).toFixed(2)}×`, `${(startup.analyze.cpu / startup.analyzePlain.cpu).toFixed(2)}×`]),
    row(['`node -e 0`', fmt(startup.node.ms), '']),
    row(['ratio `tug --version` / `node -e 0`', `${(startup.version.ms / startup.node.ms).toFixed(2)}×`, '']),
    '',
  ].join('\n');
}
