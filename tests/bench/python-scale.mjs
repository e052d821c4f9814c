// Issue 33: how a cold Python analyze-impact grows with the repository (2k–20k generated files, the renamed function
// used by the same 20 modules in each), and the warm paths (daemon, MCP server, library) on the same repositories.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cachedRepo, fmt, inProcessTimes, median, NO_DAEMON, row, timed, TUG, waitForDaemon } from './lib.mjs';
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

/** An MCP server (`tug mcp`) on `repo`: its first answer after start, `tools/list`, its first analysis, then warm ones. */
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
    const list = [];
    for (let i = 0; i < runs; i++) list.push(await ask('tools/list', {}));
    const call = () => ask('tools/call', { name: 'tug_analyze_impact', arguments: input });
    await call();
    const firstAnalysis = ms();
    const warm = [];
    for (let i = 0; i < runs; i++) warm.push(await call());
    return { initialized, firstAnalysis, list: median(list), warm: median(warm) };
  } finally {
    child.kill();
  }
}

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
    loads.push(load());
    const auto = { cwd: s.repo, env: { ...process.env, TUG_DAEMON_AUTOSTART: '1' } };
    timed(TUG, ['daemon', 'stop', '--json'], auto);
    timed(TUG, args, auto);
    waitForDaemon(s.repo, auto);
    const daemon = [];
    try {
      for (let i = 0; i < runs; i++) daemon.push(timed(TUG, args, auto).ms);
    } finally {
      timed(TUG, ['daemon', 'stop', '--json'], auto);
    }
    loads.push(load());
    const library = median(inProcessTimes('tug_analyze_impact', input, runs));
    out.push({ name: s.name, mcp, daemon: median(daemon), library, load: median(loads).toFixed(1) });
  }
  return out;
}

export function warmReport(results) {
  const lines = ['### Warm analyze-impact: daemon, MCP server, library (facts cached)', ''];
  lines.push('"daemon" is a fresh `tug` client whose call the running daemon answers (client start included); "MCP" and "library" are calls inside one running process. Target: ≤ 50 ms inside a process; the MCP server\'s first answer ≤ 1 s; `tools/list` ≤ 20 ms.', '');
  lines.push(row(['subject', 'library (in-process)', 'MCP server, warm call', 'daemon (fresh client)', 'MCP: `initialize` answered after start', 'MCP: first analysis answered after start', 'MCP `tools/list`', 'load average']));
  lines.push(row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']));
  for (const r of results) lines.push(row([r.name, fmt(r.library), fmt(r.mcp.warm), fmt(r.daemon), fmt(r.mcp.initialized), fmt(r.mcp.firstAnalysis), `${r.mcp.list.toFixed(1)} ms`, r.load]));
  lines.push('');
  return lines.join('\n');
}

export const scaleSubject = (total) => ({ name: `generated, ${total.toLocaleString('en-US')} files: \`rare_helper\``, repo: scaleRepo(total), ...SUBJECT });
