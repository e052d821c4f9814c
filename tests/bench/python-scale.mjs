// Issue 33: how a cold Python analyze-impact grows with the repository (2k–20k generated files, the renamed function
// used by the same 20 modules in each), and the warm paths (daemon, MCP server, library) on the same repositories.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cachedRepo, fmt, median, NO_DAEMON, row, timed, TUG, waitForDaemon } from './lib.mjs';
import { mb, peakRss } from './rss.mjs';
import { load } from './python-floor.mjs';

/** Modules that call the helper, whatever the repository's size: the cost should follow these, not the total. */
const USERS = 20;
const PER_PACKAGE = 100;

function generate(total) {
  return (dir) => {
    const root = path.join(dir, 'app');
    mkdirSync(path.join(root, 'core'), { recursive: true });
    writeFileSync(path.join(root, '__init__.py'), '');
    writeFileSync(path.join(root, 'core', '__init__.py'), '');
    writeFileSync(path.join(root, 'core', 'util.py'), 'def rare_helper(x: int) -> int:\n    """The helper the benchmark renames."""\n    return x + 1\n');
    const every = Math.floor(total / USERS);
    for (let i = 0; i < total; i++) {
      const pkg = `p${String(Math.floor(i / PER_PACKAGE)).padStart(3, '0')}`;
      if (i % PER_PACKAGE === 0) {
        mkdirSync(path.join(root, pkg), { recursive: true });
        writeFileSync(path.join(root, pkg, '__init__.py'), `"""Package ${pkg}."""\n`);
      }
      const uses = i % every === 0 && i / every < USERS;
      const lines = ['"""A generated module."""', 'import os', ...(uses ? ['from app.core.util import rare_helper'] : []), '', ''];
      lines.push(`class Thing${i}:`, '    def __init__(self, value: int) -> None:', '        self.value = value', '', '    def scaled(self, k: int) -> int:', `        return self.value * k + ${i}`, '', '');
      lines.push(`def make${i}(a: int) -> int:`, uses ? '    return rare_helper(a) + 1' : `    return sum(range(a)) + ${i}`, '', '');
      lines.push(`NAME = os.path.join("data", "m${i}")`, '');
      writeFileSync(path.join(root, pkg, `m${i}.py`), lines.join('\n'));
    }
  };
}

const SUBJECT = { file: 'app/core/util.py', line: 1, col: 5, to: 'scarce_helper' };
const ARGS = ['analyze-impact', 'rename-symbol', '--at', `${SUBJECT.file}:${SUBJECT.line}:${SUBJECT.col}`, '--to', SUBJECT.to, '--json'];

export const SIZES = [2000, 5000, 10000, 20000];
export const scaleRepo = (total) => cachedRepo(`py-scale-${total}`, generate(total));

/** Cold time (empty facts cache, fresh process, no daemon), warm fresh process, and peak RSS per size. */
export function scaleBench(runs, sizes = SIZES) {
  return sizes.map((total) => {
    process.stderr.write(`bench: ${total} generated files…\n`);
    const repo = scaleRepo(total);
    const cold = [];
    const warm = [];
    const loads = [];
    let references = 0;
    for (let i = 0; i < runs; i++) {
      loads.push(load());
      timed(TUG, ['clean', '--cache', '--json'], { cwd: repo, env: NO_DAEMON });
      const run = timed(TUG, ARGS, { cwd: repo, env: NO_DAEMON });
      cold.push(run.ms);
      references = JSON.parse(run.stdout).references.length;
      warm.push(timed(TUG, ARGS, { cwd: repo, env: NO_DAEMON }).ms);
    }
    timed(TUG, ['clean', '--cache', '--json'], { cwd: repo, env: NO_DAEMON });
    const rss = peakRss(TUG, ARGS, { cwd: repo, env: NO_DAEMON });
    return { total, references, cold: median(cold), warm: median(warm), rss, load: median(loads).toFixed(1) };
  });
}

export function scaleReport(results) {
  const lines = ['### Cold analyze-impact as the repository grows (generated, the helper used by the same 20 modules)', ''];
  lines.push(row(['Python files', 'references', 'tug cold (≤ 2 s)', 'tug again (facts cached, no daemon)', 'peak RSS cold (≤ 200 MB)', 'load average']));
  lines.push(row(['---:', '---:', '---:', '---:', '---:', '---:']));
  for (const r of results) lines.push(row([r.total.toLocaleString('en-US'), r.references, fmt(r.cold), fmt(r.warm), mb(r.rss), r.load]));
  lines.push('');
  return lines.join('\n');
}

/**
 * The floor of any warm call: a snapshot of the working tree (a copy of the index, `git add -A`, `git write-tree`), which
 * every call takes because the tree may have changed since the last one. Run from the calling process, whose heap makes
 * each spawn cost what it costs tug.
 */
const SNAPSHOT_FLOOR = `
const { execFile } = require('node:child_process');
const { copyFileSync, rmSync } = require('node:fs');
const run = (cwd, args, env) => new Promise((resolve, reject) => execFile('git', args, { cwd, env: { ...process.env, ...env } }, (e, out) => (e ? reject(e) : resolve(out))));
async function snapshotFloor(repo) {
  const index = require('node:path').join(require('node:os').tmpdir(), 'tug-bench-floor-' + process.pid);
  const started = process.hrtime.bigint();
  copyFileSync(repo + '/.git/index', index);
  await run(repo, ['add', '-A', '--ignore-errors', '--', '.'], { GIT_INDEX_FILE: index });
  await run(repo, ['write-tree'], { GIT_INDEX_FILE: index });
  rmSync(index, { force: true });
  return Number(process.hrtime.bigint() - started) / 1e6;
}
`;

/** One library user: the warm call and the snapshot floor, interleaved in one process. */
const WARM_LIBRARY = `
const [dist, input, runs] = process.argv.slice(1);
const repo = JSON.parse(input).workspace;
${SNAPSHOT_FLOOR}
(async () => {
  const { findOperation } = await import(dist);
  const op = findOperation('tug_analyze_impact');
  const parsed = op.input.parse(JSON.parse(input));
  await op.execute(parsed, {});
  const tug = [];
  const floor = [];
  for (let i = 0; i < Number(runs); i++) {
    const started = process.hrtime.bigint();
    await op.execute(parsed, {});
    tug.push(Number(process.hrtime.bigint() - started) / 1e6);
    floor.push(await snapshotFloor(repo));
  }
  process.stdout.write(JSON.stringify({ tug, floor }));
  process.exit(0);
})();
`;

/** A fresh Node process that takes the snapshot floor: what a fresh client handing its call to the daemon cannot beat. */
const CLIENT_FLOOR = `${SNAPSHOT_FLOOR}\nconst repo = process.argv[1];\nsnapshotFloor(repo).then(() => process.exit(0));`;

/** A Node process that answers one line on stdin: the floor of an MCP server's first answer. */
const ECHO = "process.stdin.once('data', (d) => { process.stdout.write(d); process.exit(0); });";

function firstAnswer(command, args, options) {
  return new Promise((resolve, reject) => {
    const began = process.hrtime.bigint();
    const child = spawn(command, args, { ...options, stdio: ['pipe', 'pipe', 'ignore'] });
    child.stdout.once('data', () => {
      resolve(Number(process.hrtime.bigint() - began) / 1e6);
      child.kill();
    });
    child.on('error', reject);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'bench', version: '0' } } })}\n`);
  });
}

/**
 * An MCP server (`tug mcp`) on `repo`: its first answer after start, `tools/list` against `ping` (the same round trip
 * with nothing to list), its first analysis, then warm ones interleaved with the snapshot floor.
 */
async function mcpTimes(repo, input, runs) {
  const began = process.hrtime.bigint();
  const ms = () => Number(process.hrtime.bigint() - began) / 1e6;
  const child = spawn(TUG, ['mcp'], { cwd: repo, env: NO_DAEMON, stdio: ['pipe', 'pipe', 'ignore'] });
  const waiting = new Map();
  let buffered = '';
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const message = JSON.parse(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
      waiting.get(message.id)?.(message);
    }
  });
  let id = 0;
  const ask = (method, params) =>
    new Promise((resolve, reject) => {
      const mine = ++id;
      const asked = ms();
      waiting.set(mine, (message) => (message.error || message.result?.isError ? reject(new Error(JSON.stringify(message).slice(0, 500))) : resolve(ms() - asked)));
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: mine, method, params })}\n`);
    });
  try {
    await ask('initialize', { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'bench', version: '0' } });
    const initialized = ms();
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    const call = () => ask('tools/call', { name: 'tug_analyze_impact', arguments: input });
    await call();
    const firstAnalysis = ms();
    const [list, ping, warm, floor] = [[], [], [], []];
    for (let i = 0; i < runs; i++) {
      list.push(await ask('tools/list', {}));
      ping.push(await ask('ping', {}));
      warm.push(await call());
      floor.push(snapshotFloor(repo));
    }
    return { initialized, firstAnalysis, list: median(list), ping: median(ping), warm: median(warm), floor: median(floor) };
  } finally {
    child.kill();
  }
}

/** The snapshot floor taken from this (running) process: what an MCP server's warm call cannot beat. */
function snapshotFloor(repo) {
  const index = path.join(os.tmpdir(), `tug-bench-floor-${process.pid}`);
  const started = process.hrtime.bigint();
  copyFileSync(path.join(repo, '.git', 'index'), index);
  const env = { ...process.env, GIT_INDEX_FILE: index };
  timed('git', ['add', '-A', '--ignore-errors', '--', '.'], { cwd: repo, env });
  timed('git', ['write-tree'], { cwd: repo, env });
  rmSync(index, { force: true });
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Wall time of a fresh `node -e script`: Node's start plus what the script does. */
const inNode = (script, ...args) => timed('node', ['-e', script, ...args]).ms;

/** Warm analyze-impact: through the daemon (a fresh client each call), inside an MCP server, inside a library user. */
export async function warmBench(runs, subjects) {
  const out = [];
  for (const s of subjects) {
    const input = { workspace: s.repo, operation: 'rename_symbol', file: s.file, line: s.line, column: s.col, new_name: s.to };
    const args = ['analyze-impact', 'rename-symbol', '--at', `${s.file}:${s.line}:${s.col}`, '--to', s.to, '--json'];
    const loads = [load()];
    // The facts cache filled, as after any earlier call; the MCP server's first answers are then what a new session waits.
    timed(TUG, args, { cwd: s.repo, env: NO_DAEMON });
    const { workspace, ...rest } = input;
    const mcp = await mcpTimes(s.repo, { workspace_path: workspace, ...rest }, runs);
    const echo = [];
    for (let i = 0; i < 3; i++) echo.push(await firstAnswer('node', ['-e', ECHO], {}));
    mcp.echo = median(echo);
    // The first analysis of a new server against the same analysis by a fresh CLI process (facts cached, no daemon).
    const cli = [];
    for (let i = 0; i < 3; i++) cli.push(timed(TUG, args, { cwd: s.repo, env: NO_DAEMON }).ms);
    mcp.cli = median(cli);
    loads.push(load());
    const auto = { cwd: s.repo, env: { ...process.env, TUG_DAEMON_AUTOSTART: '1' } };
    timed(TUG, ['daemon', 'stop', '--json'], auto);
    timed(TUG, args, auto);
    waitForDaemon(s.repo, auto);
    const [daemon, clientFloor] = [[], []];
    try {
      for (let i = 0; i < runs; i++) {
        daemon.push(timed(TUG, args, auto).ms);
        clientFloor.push(inNode(CLIENT_FLOOR, s.repo));
      }
    } finally {
      timed(TUG, ['daemon', 'stop', '--json'], auto);
    }
    loads.push(load());
    const dist = new URL('../../dist/lib/index.js', import.meta.url).href;
    const library = JSON.parse(timed('node', ['-e', WARM_LIBRARY, dist, JSON.stringify(input), String(runs)]).stdout);
    out.push({ name: s.name, mcp, daemon: median(daemon), clientFloor: median(clientFloor), library: median(library.tug), libraryFloor: median(library.floor), load: median(loads).toFixed(1) });
  }
  return out;
}

const ratio = (a, b) => `${(a / b).toFixed(2)}×`;

export function warmReport(results) {
  const lines = ['### Warm analyze-impact: daemon, MCP server, library (facts cached)', ''];
  lines.push(
    'Each figure beside its floor, measured in the same run and interleaved with it. "library" and "MCP warm" are calls inside one running process; their floor is the snapshot every call takes (copy of the index, `git add -A`, `git write-tree`), spawned from a Node process. "daemon" is a fresh `tug` client whose call the running daemon answers; its floor is a fresh `node` that takes the same snapshot. The MCP server\'s first answer (`initialize`) is set against a `node` that answers one line on stdin, its first analysis against the same analysis by a fresh `tug` process (facts cached, no daemon); `tools/list` against `ping` on the same server (the same round trip with nothing to list). Targets: warm ≤ 50 ms, first answer ≤ 1 s, `tools/list` ≤ 20 ms.',
    '',
  );
  lines.push(row(['subject', 'library / floor', 'MCP warm / floor', 'daemon, fresh client / floor', 'MCP `initialize` after start / node echo', 'MCP first analysis after start / fresh CLI process', 'MCP `tools/list` / `ping`', 'load average']));
  lines.push(row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']));
  for (const r of results) {
    const pair = (a, b) => `${fmt(a)} / ${fmt(b)} = ${ratio(a, b)}`;
    lines.push(
      row([
        r.name,
        pair(r.library, r.libraryFloor),
        pair(r.mcp.warm, r.mcp.floor),
        pair(r.daemon, r.clientFloor),
        pair(r.mcp.initialized, r.mcp.echo),
        pair(r.mcp.firstAnalysis, r.mcp.cli),
        `${r.mcp.list.toFixed(1)} / ${r.mcp.ping.toFixed(1)} ms = ${ratio(r.mcp.list, r.mcp.ping)}`,
        r.load,
      ]),
    );
  }
  lines.push('');
  return lines.join('\n');
}

export const scaleSubject = (total) => ({ name: `generated, ${total.toLocaleString('en-US')} files: \`rare_helper\``, repo: scaleRepo(total), ...SUBJECT });
