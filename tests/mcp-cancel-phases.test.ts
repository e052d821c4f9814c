// A cancel stops the work at every phase (analysis, sandbox set-up, a test check, cargo, commit): through the official SDK
// client, the call is cancelled when tug reports the phase; then no process tug started is left, the session lock is free
// and nothing half-done remains.
import test from 'ava';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makeRepo, type TestRepo } from './helpers/repo.js';
import { TUG_BIN } from './helpers/cli.js';

const PY = { 'app.py': 'def total(items):\n    return sum(items)\n\n\nprint(total([1, 2]))\n' };
const RENAME = { file: 'app.py', line: 1, column: 5, new_name: 'sum_all' };

/** Every process below `pid`, read from /proc. */
function descendants(pid: number): Set<number> {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const out = new Set<number>();
  const walk = (p: number) => {
    for (const child of children.get(p) ?? []) if (!out.has(child)) (out.add(child), walk(child));
  };
  walk(pid);
  return out;
}

async function waitFor(probe: () => boolean, ms = 20_000): Promise<number> {
  const started = Date.now();
  while (!probe()) {
    if (Date.now() - started > ms) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return Date.now() - started;
}

interface Phase {
  files: Record<string, string>;
  tool: string;
  args: Record<string, unknown>;
  /** A call that passes through the same steps to the end, so long-lived helpers (the Python worker) exist before. */
  warmUp: Record<string, unknown>;
  at: RegExp;
  changed: string;
}

async function cancelAt(t: any, phase: Phase, repo: TestRepo): Promise<void> {
  const transport = new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe' });
  const client = new Client({ name: 'tug-cancel-phases', version: '0.0.0' });
  await client.connect(transport);
  const server = transport.pid!;
  const warm = await client.callTool({ name: phase.tool, arguments: phase.warmUp });
  t.falsy(warm.isError, JSON.stringify(warm.structuredContent));
  const warmBranch = (warm.structuredContent as any).git.branch as string;
  await repo.git('branch', '-D', warmBranch);
  const baseline = descendants(server);
  const before = await repo.readText(phase.changed);
  const head = await repo.git('rev-parse', 'HEAD');
  const controller = new AbortController();
  const messages: string[] = [];
  const call = client.callTool({ name: phase.tool, arguments: phase.args }, undefined, {
    signal: controller.signal,
    timeout: 600_000,
    onprogress: (p) => {
      messages.push(p.message ?? '');
      if (phase.at.test(p.message ?? '')) controller.abort('cancelled at a phase');
    },
  });
  await t.throwsAsync(call);
  t.true(messages.some((m) => phase.at.test(m)), JSON.stringify(messages));
  const lockFile = path.join(repo.root, '.git', 'tug', 'lock');
  const settled = await waitFor(() => [...descendants(server)].every((pid) => baseline.has(pid)) && !existsSync(lockFile));
  t.log(`${phase.at}: processes gone and lock free ${settled} ms after the cancel reached the client`);
  t.is(await repo.git('rev-parse', 'HEAD'), head, 'HEAD did not move');
  t.is(await repo.readText(phase.changed), before, 'nothing was written');
  t.is(await repo.git('branch', '--list', 'tug/*'), '', 'no result branch');
  // The lock is free: a call that refuses to wait succeeds at once.
  const next = await client.callTool({ name: 'tug_edit_file', arguments: { path: phase.changed, old_text: before.slice(0, 3), new_text: before.slice(0, 3), no_wait: true } });
  t.not((next.structuredContent as any)?.error?.code, 'SessionLocked');
  await client.close();
}

const sleepTests = ['{python}', '-c', 'import time; time.sleep(60)'];

for (const [name, at] of [
  ['analysis', /^analysing/],
  ['sandbox set-up', /^preparing sandbox/],
  ['a test check', /tests running for/],
] as const) {
  test(`a cancel during ${name} stops everything and frees the lock`, async (t) => {
    const repo = await makeRepo(PY);
    await cancelAt(t, {
      files: PY,
      tool: 'tug_rename_symbol',
      args: { ...RENAME, verify: 'tests', test_command: sleepTests, apply: true },
      warmUp: { ...RENAME, verify: 'syntax' },
      at,
      changed: 'app.py',
    }, repo);
    await repo.cleanup();
  });
}

test('a cancel while committing leaves HEAD, files and branches as they were or finishes them all, and frees the lock', async (t) => {
  const repo = await makeRepo(PY);
  const transport = new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe' });
  const client = new Client({ name: 'tug-cancel-phases', version: '0.0.0' });
  await client.connect(transport);
  const head = await repo.git('rev-parse', 'HEAD');
  const controller = new AbortController();
  const call = client.callTool({ name: 'tug_rename_symbol', arguments: { ...RENAME, verify: 'syntax', commit: true } }, undefined, {
    signal: controller.signal,
    onprogress: (p) => (/committing/.test(p.message ?? '') ? controller.abort() : undefined),
  });
  await t.throwsAsync(call);
  await waitFor(() => !existsSync(path.join(repo.root, '.git', 'tug', 'lock')));
  const moved = (await repo.git('rev-parse', 'HEAD')) !== head;
  const text = await repo.readText('app.py');
  t.is(text.includes('sum_all'), moved, 'the files match HEAD: all of the commit or none of it');
  t.is(await repo.git('status', '--porcelain'), '');
  await client.close();
  await repo.cleanup();
});

const CRATE = {
  'Cargo.toml': '[package]\nname = "slow"\nversion = "0.1.0"\nedition = "2021"\n',
  // A build script that outlives any test: cargo check runs it, and the cancel must kill it with cargo.
  'build.rs': 'fn main() { if std::env::var("SLOW_BUILD").is_err() { std::thread::sleep(std::time::Duration::from_secs(120)); } }\n',
  'src/lib.rs': 'pub fn one() -> u32 {\n    1\n}\n',
};

test('a cancel during cargo check kills cargo and its build script and frees the lock', async (t) => {
  const repo = await makeRepo(CRATE);
  const edit = (text: string) => ({ patchset: { edits: [{ file: 'src/lib.rs', line: 2, col: 5, old_text: '1', new_text: text }] } });
  await cancelAt(t, {
    files: CRATE,
    tool: 'tug_apply_patchset',
    args: { ...edit('2'), verify: 'syntax' },
    warmUp: { ...edit('3'), verify: 'none' },
    at: /cargo check running for/,
    changed: 'src/lib.rs',
  }, repo);
  await repo.cleanup();
});
