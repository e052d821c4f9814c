// The one daemon per user: 20 repositories (Python and Rust) touched in a row, then its memory, warm latency, a read
// beside a running verification, and what each start-up mechanism saves.
import { existsSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { cachedRepo, fmt, median, ROOT, row, timed, TUG } from './lib.mjs';

const PYTHON_REPOS = 14;
const RUST_REPOS = 6;

function pythonRepo(i) {
  return cachedRepo(`daemon-py-${i}`, (dir) => {
    cpSync(path.join(ROOT, 'fixtures', 'python', 'realistic'), dir, { recursive: true });
    writeFileSync(path.join(dir, 'repo_id.py'), `REPO = ${i}\n`);
  });
}

function rustRepo(i) {
  return cachedRepo(`daemon-rust-${i}`, (dir) => {
    cpSync(path.join(ROOT, 'fixtures', 'rust', 'mini_cli'), dir, { recursive: true, filter: (src) => !/\/(target|Cargo\.lock)$/.test(src) });
    writeFileSync(path.join(dir, 'src', 'repo_id.rs'), `pub const REPO: u32 = ${i};\n`);
  });
}

const PY = { at: 'shop/models.py:25:9', to: 'grand_total' };
const RS = { at: 'src/store.rs:19:12', to: 'push_task' };
const analyze = (s) => ['analyze-impact', 'rename-symbol', '--at', s.at, '--to', s.to];

/** Resident bytes of a pid (VmRSS), and its children, from /proc. */
function rss(pid) {
  try {
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
  } catch {
    return 0;
  }
}
function children(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((t) => readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number));
  } catch {
    return [];
  }
}
function isRustAnalyzer(pid) {
  try {
    return /rust-analyzer/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return false;
  }
}

/** The daemon's process tree by /proc, not by what it says: tug's own processes, and rust-analyzers with their children. */
function processTree(root) {
  const tug = { pids: [], bytes: 0 };
  const analyzers = { count: 0, bytes: 0, pids: [] };
  const walk = (pid, underAnalyzer) => {
    const analyzer = underAnalyzer || isRustAnalyzer(pid);
    if (analyzer && !underAnalyzer) analyzers.count += 1;
    if (analyzer) (analyzers.bytes += rss(pid)), analyzers.pids.push(pid);
    else (tug.pids.push(pid), (tug.bytes += rss(pid)));
    for (const child of children(pid)) walk(child, analyzer);
  };
  walk(root, false);
  return { tug, analyzers, all: [...tug.pids, ...analyzers.pids] };
}

/** Running, not merely a zombie waiting for a parent (a container's init may not reap). */
const alive = (pid) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

export function daemonBench(runs) {
  const home = mkdtempSync(path.join(os.tmpdir(), 'tug-bench-daemon-'));
  mkdirSync(path.join(home, 'config'), { recursive: true });
  // A private runtime dir: the bench's daemon is its own, not the user's.
  const env = { ...process.env, XDG_RUNTIME_DIR: path.join(home, 'run'), XDG_CONFIG_HOME: path.join(home, 'config') };
  const tug = (cwd, args, extra = {}) => timed(TUG, [...args], { cwd, env: { ...env, ...extra } });
  tug.env = env;
  const status = () => JSON.parse(tug(os.tmpdir(), ['daemon', 'status']).stdout).daemon;
  const repos = [];
  for (let i = 0; i < PYTHON_REPOS + RUST_REPOS; i++) {
    // Mixed: a Rust repository every third, the others Python.
    const rust = i % 3 === 2 && repos.filter((r) => r.rust).length < RUST_REPOS;
    repos.push(rust ? { dir: rustRepo(i), subject: RS, rust } : { dir: pythonRepo(i), subject: PY, rust });
  }
  const out = { repos: repos.length, rustRepos: repos.filter((r) => r.rust).length };
  try {
    tug(os.tmpdir(), ['daemon', 'start']);
    const pid = status().pid;
    let peakTug = 0;
    let peakAnalyzers = 0;
    const touch = [];
    for (const repo of repos) {
      touch.push(tug(repo.dir, analyze(repo.subject)).ms);
      // Limits are applied once a request ends: sample after that.
      timed('sleep', ['0.3']);
      const tree = processTree(pid);
      peakTug = Math.max(peakTug, tree.tug.bytes);
      peakAnalyzers = Math.max(peakAnalyzers, tree.analyzers.count);
    }
    const after = processTree(pid);
    const reported = status();
    Object.assign(out, { touchMs: touch, peakTug, peakAnalyzers, after, reported });
    // Warm analyze-impact through the daemon, on a Python repository touched before.
    const warmRepo = repos.find((r) => !r.rust);
    tug(warmRepo.dir, analyze(PY));
    out.warm = median(Array.from({ length: runs * 5 }, () => tug(warmRepo.dir, analyze(PY)).ms));
    out.version = median(Array.from({ length: runs * 5 }, () => tug(warmRepo.dir, ['--version']).ms));
    // A read while a verification runs in the same repository.
    out.duringVerification = duringVerification(repos.filter((r) => !r.rust)[1].dir, tug);
    tug(os.tmpdir(), ['daemon', 'stop']);
    out.leftAfterStop = after.all.filter(alive).map((p) => `${p}`);
    out.mechanisms = mechanisms(repos.filter((r) => !r.rust)[2].dir, tug, runs);
  } finally {
    tug(os.tmpdir(), ['daemon', 'stop']);
    rmSync(home, { recursive: true, force: true });
  }
  return out;
}

function duringVerification(dir, tug) {
  const release = path.join(os.tmpdir(), `tug-bench-release-${process.pid}`);
  for (const f of [release, `${release}.started`, `${release}.done`]) rmSync(f, { force: true });
  const command = JSON.stringify(['sh', '-c', `touch ${release}.started; while [ ! -f ${release} ]; do sleep 0.05; done`]);
  const quote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
  const rename = [TUG, 'rename', PY.at, 'grand_total', '--verify', 'tests', '--test-command', command].map(quote).join(' ');
  spawn('sh', ['-c', `${rename} >/dev/null 2>&1; touch ${quote(`${release}.done`)}`], { cwd: dir, env: tug.env, stdio: 'ignore', detached: true }).unref();
  for (let i = 0; i < 600 && !existsSync(`${release}.started`); i++) timed('sleep', ['0.1']);
  const snapshot = tug(dir, ['snapshot']).ms;
  const read = tug(dir, analyze(PY)).ms;
  const running = JSON.parse(tug(os.tmpdir(), ['daemon', 'status']).stdout).daemon.in_flight;
  writeFileSync(release, '');
  for (let i = 0; i < 600 && !existsSync(`${release}.done`); i++) timed('sleep', ['0.1']);
  for (const f of [release, `${release}.started`, `${release}.done`]) rmSync(f, { force: true });
  return { snapshot, read, running };
}

const CONNECT = `
const { existsSync } = await import('node:fs');
const net = await import('node:net');
const missing = '/tmp/tug-no-such-dir/daemon.sock';
const time = async (f) => { const t = process.hrtime.bigint(); for (let i = 0; i < 50; i++) await f(); return Number(process.hrtime.bigint() - t) / 1e6 / 50; };
const checked = await time(async () => existsSync(missing));
const connect = await time(() => new Promise((r) => net.createConnection(missing).on('error', r)));
process.stdout.write(JSON.stringify({ checked, connect }));
`;

/**
 * What each start-up mechanism saves, each measured against the same path without it: forwarding to the daemon
 * (vs a fresh process), the warm-up an automatic start does (vs a daemon started bare, its first call 2 s later),
 * the lean snapshot (vs the full CLI), the code cache (vs compiling the bundle), the socket check (vs a connect).
 */
function mechanisms(dir, tug, runs) {
  const times = (n, f) => median(Array.from({ length: n }, f));
  const fresh = { TUG_NO_DAEMON: '1' };
  const out = {};
  tug(dir, ['daemon', 'start']);
  tug(dir, analyze(PY));
  out.daemon = { with: times(runs * 3, () => tug(dir, analyze(PY)).ms), without: times(runs * 3, () => tug(dir, analyze(PY), fresh).ms) };
  tug(dir, ['daemon', 'stop']);
  const firstAfter = (start) => () => {
    start();
    timed('sleep', ['2']);
    const ms = tug(dir, analyze(PY)).ms;
    tug(dir, ['daemon', 'stop']);
    return ms;
  };
  out.warmUp = {
    with: times(runs * 2, firstAfter(() => tug(dir, analyze(PY), { TUG_DAEMON_AUTOSTART: '1', CI: '' }))),
    without: times(runs * 2, firstAfter(() => tug(dir, ['daemon', 'start']))),
  };
  out.leanSnapshot = { with: times(runs * 3, () => tug(dir, ['snapshot'], fresh).ms), without: times(runs * 3, () => tug(dir, ['snapshot', '-C', '.'], fresh).ms) };
  out.codeCache = { with: times(runs * 3, () => tug(dir, analyze(PY), fresh).ms), without: times(runs * 3, () => tug(dir, analyze(PY), { ...fresh, TUG_CODE_CACHE: '0' }).ms) };
  const connect = JSON.parse(timed('node', ['--input-type=module', '-e', CONNECT]).stdout);
  out.socketCheck = { with: connect.checked, without: connect.connect };
  return out;
}

const mb = (bytes) => `${Math.round(bytes / 2 ** 20)} MB`;

export function daemonReport(r) {
  const m = r.mechanisms;
  const gain = (x) => fmt(x.without - x.with);
  return [
    '## One daemon per user: many repositories, memory, reads beside writes',
    '',
    `${r.repos} repositories (${r.repos - r.rustRepos} Python copies of the realistic fixture, ${r.rustRepos} Rust copies of mini_cli) touched in a row with one \`analyze-impact\` each through the user's daemon (default limits: 300 MB for the daemon and its Python workers, 2 rust-analyzers). Memory from /proc over the daemon's process tree, sampled after each call; rust-analyzers and their children counted apart.`,
    '',
    row(['measure', 'value', 'target']),
    row(['---', '---:', '---:']),
    row(['tug processes after the 20 calls (daemon + Python workers)', mb(r.after.tug.bytes), '≤ 300 MB']),
    row(['peak of tug processes, sampled after each call', mb(r.peakTug), '≤ 300 MB']),
    row(['rust-analyzers after the 20 calls (their memory)', `${r.after.analyzers.count} (${mb(r.after.analyzers.bytes)})`, '≤ 2']),
    row(['most rust-analyzers seen after a call', String(r.peakAnalyzers), '≤ 2']),
    row(['what the daemon reports (daemon + workers)', mb(r.reported.memory.total_bytes), '']),
    row(['repositories it lists', String(r.reported.repositories.length), '']),
    row(['first call per repository, median (Python / Rust mixed)', fmt(median(r.touchMs)), '']),
    row(['warm `analyze-impact` through the daemon, median', fmt(r.warm), '≤ 0.3 s']),
    row(['`tug --version`, median', fmt(r.version), '']),
    row([`\`tug snapshot\` while a verification runs in the same repository (${r.duringVerification.running} request running)`, fmt(r.duringVerification.snapshot), '≤ 0.5 s']),
    row(['`analyze-impact` while that verification runs', fmt(r.duringVerification.read), '≤ 0.5 s']),
    row(['processes left after `tug daemon stop` (tug, workers, rust-analyzers)', String(r.leftAfterStop.length), '0']),
    '',
    '### Start-up mechanisms and what each saves',
    '',
    row(['mechanism', 'with', 'without', 'saves']),
    row(['---', '---:', '---:', '---:']),
    row(['forwarding to the resident daemon (warm analyze vs a fresh process)', fmt(m.daemon.with), fmt(m.daemon.without), gain(m.daemon)]),
    row(['warm-up of the rename target by an automatic start (first call 2 s after the start)', fmt(m.warmUp.with), fmt(m.warmUp.without), gain(m.warmUp)]),
    row(['lean snapshot (`tug snapshot` vs the full CLI, no daemon)', fmt(m.leanSnapshot.with), fmt(m.leanSnapshot.without), gain(m.leanSnapshot)]),
    row(['V8 code cache of the CLI bundle (analyze, no daemon)', fmt(m.codeCache.with), fmt(m.codeCache.without), gain(m.codeCache)]),
    row(['socket file check before connecting (per call without a daemon)', `${m.socketCheck.with.toFixed(2)} ms`, `${m.socketCheck.without.toFixed(2)} ms`, `${(m.socketCheck.without - m.socketCheck.with).toFixed(2)} ms`]),
    '',
  ].join('\n');
}
