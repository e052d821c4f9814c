// Cancellation and locking over MCP: a cancelled call kills its checks, writes nothing and frees the lock; read-only
// verification runs without the session lock, so a change can land while it runs.
import test from 'ava';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makeRepo, type TestRepo } from './helpers/repo.js';
import { TUG_BIN } from './helpers/cli.js';
import { ownerAlive } from '../lib/session/owner.js';

const SOURCE = { 'app.py': 'def f():\n    return 1\n\nprint(f())\n' };
const EDITS = [
  { file: 'app.py', line: 1, col: 5, old_text: 'f', new_text: 'g' },
  { file: 'app.py', line: 4, col: 7, old_text: 'f', new_text: 'g' },
];

async function connect(repo: TestRepo): Promise<Client> {
  const client = new Client({ name: 'tug-cancel-test', version: '0.0.0' });
  // Unconfined: the sleeper reports its pid, which in bubblewrap's PID namespace would not be the host's.
  const env = { ...getDefaultEnvironment(), TUG_ISOLATION: 'none' };
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe', env }));
  await client.listTools();
  return client;
}

/** A test command that records its pid and then sleeps far longer than the test waits. */
function sleeper(dir: string): string[] {
  return ['{python}', '-c', `import os, time; open(${JSON.stringify(path.join(dir, 'pid'))}, 'w').write(str(os.getpid())); time.sleep(120)`];
}

async function waitFor<T>(probe: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}


test.serial('a cancelled change stops its test process, commits and writes nothing, and releases the lock', async (t) => {
  const repo = await makeRepo(SOURCE);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tug-cancel-'));
  const client = await connect(repo);
  const branchesBefore = await repo.git('branch', '--list', 'tug/*');
  const controller = new AbortController();
  const call = client.callTool(
    { name: 'tug_apply_patchset', arguments: { patchset: { edits: EDITS }, verify: 'tests', test_command: sleeper(dir), apply: true } },
    undefined,
    { signal: controller.signal },
  );
  const pid = await waitFor(async () => Number(await readFile(path.join(dir, 'pid'), 'utf8').catch(() => '')) || undefined);
  t.true(ownerAlive({ pid: pid }));
  controller.abort('the agent changed its mind');
  await t.throwsAsync(call);
  await waitFor(async () => (ownerAlive({ pid: pid }) ? undefined : true), 10_000);
  t.false(ownerAlive({ pid: pid }), 'the test process was killed');
  // The lock is free: a change with no_wait succeeds at once.
  const next = await client.callTool({ name: 'tug_apply_patchset', arguments: { patchset: { edits: EDITS }, verify: 'syntax', apply: false, no_wait: true } });
  t.falsy(next.isError, JSON.stringify(next.structuredContent));
  t.is(await repo.readText('app.py'), SOURCE['app.py'], 'nothing was written');
  const branches = (await repo.git('branch', '--list', 'tug/*')).split('\n').filter(Boolean);
  t.is(branches.length, branchesBefore.split('\n').filter(Boolean).length + 1, 'only the second call made a branch');
  const log = JSON.parse(String(((await client.readResource({ uri: 'workspace://log' })).contents[0] as { text: string }).text));
  t.is(log.entries.length, 1, 'the cancelled call left no log entry');
  await client.close();
  await rm(dir, { recursive: true, force: true });
  await repo.cleanup();
});

test.serial('tug_verify holds no lock: a change lands while it runs; cancelling it kills its tests', async (t) => {
  const repo = await makeRepo(SOURCE);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tug-cancel-'));
  const client = await connect(repo);
  const controller = new AbortController();
  const verifying = client.callTool({ name: 'tug_verify', arguments: { mode: 'tests', test_command: sleeper(dir) } }, undefined, { signal: controller.signal });
  const pid = await waitFor(async () => Number(await readFile(path.join(dir, 'pid'), 'utf8').catch(() => '')) || undefined);
  const edit = await client.callTool({ name: 'tug_edit_file', arguments: { path: 'app.py', old_text: 'return 1', new_text: 'return 2', no_wait: true } });
  t.falsy(edit.isError, JSON.stringify(edit.structuredContent));
  controller.abort();
  await t.throwsAsync(verifying);
  await waitFor(async () => (ownerAlive({ pid: pid }) ? undefined : true), 10_000);
  t.false(ownerAlive({ pid: pid }));
  await client.close();
  await rm(dir, { recursive: true, force: true });
  await repo.cleanup();
});

test('tug_verify mode selects the checks: tests runs the test command, syntax does not', async (t) => {
  const repo = await makeRepo(SOURCE);
  const client = await connect(repo);
  const failing = ['{python}', '-c', 'raise SystemExit(3)'];
  const tests = await client.callTool({ name: 'tug_verify', arguments: { mode: 'tests', test_command: failing } });
  t.true(tests.isError);
  t.like((tests.structuredContent as any).error, { code: 'VerificationFailed', exit_code: 5 });
  const syntax = await client.callTool({ name: 'tug_verify', arguments: { mode: 'syntax', test_command: failing } });
  t.falsy(syntax.isError, JSON.stringify(syntax.structuredContent));
  t.deepEqual((syntax.structuredContent as any).verification.checks.map((c: any) => c.name), ['python-syntax']);
  const old = await client.callTool({ name: 'tug_verify', arguments: { verify: 'tests' } });
  t.like((old.structuredContent as any).error, { code: 'InvalidArgument', details: { argument: 'verify', did_you_mean: 'mode' } });
  await client.close();
  await repo.cleanup();
});
