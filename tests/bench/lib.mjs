// Shared helpers for the benchmarks: timing whole processes, medians, generated repositories cached under /tmp.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Run as a command, the way a user's shell starts it (its first line is a shell script; see bin/tug). */
export const TUG = path.join(ROOT, 'bin', 'tug');
export const CACHE = '/tmp/tug-bench';
/** For a cold run: a daemon left running by someone else would answer in tug's place. */
export const NO_DAEMON = { ...process.env, TUG_NO_DAEMON: '1' };

/** Wall time of one process in milliseconds; throws with its output when it fails. */
export function timed(command, args, options = {}) {
  const started = process.hrtime.bigint();
  const run = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, ...options });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.status !== 0 && !options.allowFailure) {
    throw new Error(`${command} ${args.join(' ')} exited ${run.status}\n${run.stdout?.slice(-2000)}\n${run.stderr?.slice(-2000)}`);
  }
  return { ms, stdout: run.stdout, stderr: run.stderr, status: run.status };
}

const IN_PROCESS = `
const [tool, input, runs] = process.argv.slice(1);
const { findOperation } = await import(${JSON.stringify(new URL('../../dist/lib/index.js', import.meta.url).href)});
const op = findOperation(tool);
const parsed = op.input.parse(JSON.parse(input));
await op.execute(parsed, {});
const times = [];
for (let i = 0; i < Number(runs); i++) {
  const started = process.hrtime.bigint();
  await op.execute(parsed, {});
  times.push(Number(process.hrtime.bigint() - started) / 1e6);
}
process.stdout.write(JSON.stringify(times));
process.exit(0);
`;

/**
 * Milliseconds of each of `runs` calls of one operation inside a single Node process, after one call that warms it:
 * no start-up and no module loading, what the MCP server or a library user waits.
 */
export function inProcessTimes(tool, input, runs) {
  return JSON.parse(timed('node', ['--input-type=module', '-e', IN_PROCESS, tool, JSON.stringify(input), String(runs)]).stdout);
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function git(cwd, ...args) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }).trim();
}

/** A deterministic pseudo-random text generator, so generated repos are the same on every machine. */
export function prng(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state;
  };
}

/** Creates `dir` as a committed git repo with `write(dir)` unless a finished copy is cached. */
export function cachedRepo(name, write) {
  const dir = path.join(CACHE, name);
  const done = path.join(dir, '.git', 'tug-bench-ready');
  if (existsSync(done)) return dir;
  spawnSync('rm', ['-rf', dir]);
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'Bench');
  git(dir, 'config', 'user.email', 'bench@example.com');
  write(dir);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'generated');
  writeFileSync(done, '');
  return dir;
}

export function row(cells) {
  return `| ${cells.join(' | ')} |`;
}

export const fmt = (ms) => `${ms >= 1000 ? (ms / 1000).toFixed(2) + ' s' : Math.round(ms) + ' ms'}`;

/** Runs `body` while a `tug daemon` serves `repo`, and stops it afterwards. */
/** Waits (up to 10 s) until the repository's daemon answers, e.g. after a command started one on its own. */
export function waitForDaemon(repo, options = {}) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const status = JSON.parse(timed(TUG, ['daemon', 'status', '--json'], { cwd: repo, ...options }).stdout);
    if (status.daemon.running) return;
    spawnSync('sleep', ['0.1']);
  }
  throw new Error(`no daemon came up in ${repo}`);
}

export function withDaemon(repo, body) {
  timed(TUG, ['daemon', 'start', '--json'], { cwd: repo });
  try {
    return body();
  } finally {
    timed(TUG, ['daemon', 'stop', '--json'], { cwd: repo });
  }
}
