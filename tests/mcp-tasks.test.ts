// MCP tasks (2025-11-25, experimental) through the official SDK client: a long tool asked for as a task answers with a
// handle at once, reports progress in tasks/get, can be cancelled (its checks killed, the lock freed, nothing
// written) and gives its result later; a client that asks for no task gets today's behaviour.
import test from 'ava';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { makeRepo, type TestRepo } from './helpers/repo.js';
import { TUG_BIN } from './helpers/cli.js';
import { ownerAlive } from '../lib/session/owner.js';

const SOURCE = { 'app.py': 'def total(items):\n    return sum(items)\n\n\nprint(total([1, 2]))\n', 'other.py': 'Y = 1\n' };
const RENAME = { file: 'app.py', line: 1, column: 5, new_name: 'sum_all' };

async function connect(repo: TestRepo): Promise<Client> {
  const client = new Client({ name: 'tug-tasks-test', version: '0.0.0' });
  // Unconfined: the sleeper reports its pid, which in bubblewrap's PID namespace would not be the host's.
  const env = { ...getDefaultEnvironment(), TUG_ISOLATION: 'none' };
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe', env }));
  return client;
}

async function waitFor<T>(probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('the server declares tasks; long tools take one, quick tools refuse one', async (t) => {
  const repo = await makeRepo(SOURCE);
  const client = await connect(repo);
  t.truthy(client.getServerCapabilities()?.tasks?.requests?.tools?.call);
  const { tools } = await client.listTools();
  const support = (name: string) => (tools.find((tool) => tool.name === name) as { execution?: { taskSupport?: string } } | undefined)?.execution?.taskSupport;
  for (const name of ['tug_rename_symbol', 'tug_apply_patchset', 'tug_verify', 'tug_run_command', 'tug_edit_file']) t.is(support(name), 'optional', name);
  for (const name of ['tug_read_file', 'tug_snapshot', 'tug_undo']) t.is(support(name), undefined, name);
  const stream = client.experimental.tasks.callToolStream({ name: 'tug_read_file', arguments: { path: 'app.py' } }, CallToolResultSchema, { task: { ttl: 60_000 } });
  const messages = [];
  for await (const message of stream) messages.push(message);
  t.is(messages.at(-1)?.type, 'error');
  t.regex(String((messages.at(-1) as { error?: Error }).error?.message), /does not run as a task/);
  await client.close();
  await repo.cleanup();
});

test('a rename verified by 6 s of tests as a task: a handle at once, progress in tasks/get, the result later', async (t) => {
  const repo = await makeRepo(SOURCE);
  const client = await connect(repo);
  const started = Date.now();
  const stream = client.experimental.tasks.callToolStream(
    { name: 'tug_rename_symbol', arguments: { ...RENAME, verify: 'tests', test_command: ['{python}', '-c', 'import time; time.sleep(6)'] } },
    CallToolResultSchema,
    // A request timeout far below the run: each poll is its own short request.
    { task: { ttl: 120_000 }, timeout: 3_000 },
  );
  const seen: Array<{ type: string; status?: string; statusMessage?: string }> = [];
  let result: any;
  for await (const message of stream) {
    if (message.type === 'result') result = message.result;
    seen.push({ type: message.type, ...(message.type === 'taskStatus' || message.type === 'taskCreated' ? { status: message.task.status, statusMessage: message.task.statusMessage } : {}) });
    if (message.type === 'error') t.fail(String(message.error));
  }
  t.is(seen[0]!.type, 'taskCreated');
  t.true(seen.some((m) => m.type === 'taskStatus' && m.status === 'working' && /tests/.test(m.statusMessage ?? '')), JSON.stringify(seen));
  t.falsy(result?.isError, JSON.stringify(result));
  t.regex(String(result.structuredContent.git.branch), /^tug\//);
  t.is(result.structuredContent.verification.status, 'passed');
  // The run outlasted the request timeout: no request stayed open for it (issue 29's task case, scaled down).
  t.true(Date.now() - started > 3_000, 'the task outlasted the request timeout');
  await client.close();
  await repo.cleanup();
});

test('tasks/cancel stops the run: its test process is killed, the lock is free, nothing is written', async (t) => {
  const repo = await makeRepo(SOURCE);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tug-task-cancel-'));
  const client = await connect(repo);
  const sleeper = ['{python}', '-c', `import os, time; open(${JSON.stringify(path.join(dir, 'pid'))}, 'w').write(str(os.getpid())); time.sleep(120)`];
  const created = await client.request(
    { method: 'tools/call', params: { name: 'tug_rename_symbol', arguments: { ...RENAME, verify: 'tests', test_command: sleeper, apply: true }, task: { ttl: 60_000 } } },
    (await import('@modelcontextprotocol/sdk/types.js')).CreateTaskResultSchema,
  );
  const taskId = created.task.taskId;
  const pid = await waitFor(async () => Number(await readFile(path.join(dir, 'pid'), 'utf8').catch(() => '')) || undefined);
  t.is((await client.experimental.tasks.getTask(taskId)).status, 'working');
  await client.experimental.tasks.cancelTask(taskId);
  t.is((await client.experimental.tasks.getTask(taskId)).status, 'cancelled');
  await waitFor(async () => (ownerAlive({ pid }) ? undefined : true), 20_000);
  // The lock is free: a write with no_wait goes through at once.
  const next = await waitFor(async () => {
    const r = await client.callTool({ name: 'tug_edit_file', arguments: { path: 'other.py', old_text: 'Y = 1', new_text: 'Y = 2', no_wait: true } });
    return (r.structuredContent as any)?.error?.code === 'SessionLocked' ? undefined : r;
  }, 10_000);
  t.falsy(next.isError, JSON.stringify(next.structuredContent));
  t.is(await repo.readText('app.py'), SOURCE['app.py'], 'the cancelled rename wrote nothing');
  t.is((await client.experimental.tasks.getTask(taskId)).status, 'cancelled', 'it stays cancelled');
  await client.close();
  await rm(dir, { recursive: true, force: true });
  await repo.cleanup();
});

test("a task whose call fails is failed, and tasks/result gives tug's error envelope", async (t) => {
  const repo = await makeRepo(SOURCE);
  const client = await connect(repo);
  const { CreateTaskResultSchema } = await import('@modelcontextprotocol/sdk/types.js');
  const created = await client.request(
    { method: 'tools/call', params: { name: 'tug_rename_symbol', arguments: { ...RENAME, line: 99 }, task: { ttl: 60_000 } } },
    CreateTaskResultSchema,
  );
  const task = await waitFor(async () => {
    const now = await client.experimental.tasks.getTask(created.task.taskId);
    return now.status === 'working' ? undefined : now;
  });
  t.is(task.status, 'failed');
  const result = (await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema)) as any;
  t.true(result.isError);
  t.is(result.structuredContent.error.code, 'InvalidPosition');
  await client.close();
  await repo.cleanup();
});
