// tug_undo waiting behind another write's verification can be cancelled: the wait ends at once, the undo never runs
// later (it used to wait on, then undo after the client had given up), and the token stays good for a later undo.
import test from 'ava';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makeRepo } from './helpers/repo.js';
import { TUG_BIN } from './helpers/cli.js';
import { ownerAlive } from '../lib/session/owner.js';

const SOURCE = { 'app.py': 'X = 1\n', 'other.py': 'Y = 1\n', 'third.py': 'Z = 1\n' };

async function waitFor<T>(probe: () => Promise<T | undefined>, ms = 30_000): Promise<T | undefined> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('a cancelled tug_undo waiting for the session lock stops waiting and never undoes later', async (t) => {
  t.timeout(240_000);
  const repo = await makeRepo(SOURCE);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tug-undo-cancel-'));
  const client = new Client({ name: 'tug-undo-cancel', version: '0.0.0' });
  // Unconfined: the sleeper reports its pid, which in bubblewrap's PID namespace would not be the host's.
  const env = { ...getDefaultEnvironment(), TUG_ISOLATION: 'none' };
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe', env }));
  const edit = await client.callTool({ name: 'tug_edit_file', arguments: { path: 'app.py', old_text: 'X = 1', new_text: 'X = 2', apply: true } });
  const token = (edit.structuredContent as any).undo_token;
  t.truthy(token, JSON.stringify(edit.structuredContent));

  // Another write holds the session lock while its tests run.
  const blocker = new AbortController();
  const sleeper = ['{python}', '-c', `import os, time; open(${JSON.stringify(path.join(dir, 'pid'))}, 'w').write(str(os.getpid())); time.sleep(120)`];
  const blocking = client.callTool(
    { name: 'tug_edit_file', arguments: { path: 'other.py', old_text: 'Y = 1', new_text: 'Y = 2', verify: 'tests', test_command: sleeper } },
    undefined,
    { signal: blocker.signal, timeout: 200_000 },
  );
  const pid = await waitFor(async () => Number(await readFile(path.join(dir, 'pid'), 'utf8').catch(() => '')) || undefined);
  t.truthy(pid);

  const undoer = new AbortController();
  const messages: string[] = [];
  const undoing = client.callTool({ name: 'tug_undo', arguments: { token } }, undefined, {
    signal: undoer.signal,
    onprogress: (p) => messages.push(p.message ?? ''),
  });
  const told = await waitFor(async () => (messages.some((m) => /waiting for the session lock/.test(m)) ? true : undefined), 5_000);
  t.true(told, `the undo says it waits: ${JSON.stringify(messages)}`);
  undoer.abort('the agent gave up');
  await t.throwsAsync(undoing);

  // The blocker ends (cancelled too); then a write that waits for the lock runs after anything still queued.
  blocker.abort('done');
  await t.throwsAsync(blocking);
  await waitFor(async () => (ownerAlive({ pid: pid! }) ? undefined : true), 10_000);
  const after = await client.callTool({ name: 'tug_edit_file', arguments: { path: 'third.py', old_text: 'Z = 1', new_text: 'Z = 2', apply: true } });
  t.falsy(after.isError, JSON.stringify(after.structuredContent));
  t.is(await repo.readText('app.py'), 'X = 2\n', 'the cancelled undo did not run once the lock was free');
  t.is(await repo.readText('other.py'), 'Y = 1\n');

  const undone = await client.callTool({ name: 'tug_undo', arguments: { token, no_wait: true } });
  t.falsy(undone.isError, JSON.stringify(undone.structuredContent));
  t.is(await repo.readText('app.py'), 'X = 1\n', 'the token still undoes the change');
  await client.close();
  await rm(dir, { recursive: true, force: true });
  await repo.cleanup();
});
