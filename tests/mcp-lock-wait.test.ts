// A write queued behind another write waits for the session lock (telling the client it waits, through progress) instead
// of failing after 30 s; no_wait keeps the immediate refusal and wait_s bounds the wait.
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makeRepo } from './helpers/repo.js';
import { TUG_BIN } from './helpers/cli.js';

const FILES = { 'app.py': 'def f():\n    return 1\n', 'other.py': 'x = 1\n' };

test('a second write waits for the first one\'s verification, with progress; no_wait and a short wait_s refuse', async (t) => {
  const repo = await makeRepo(FILES);
  const env = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => k !== 'TUG_LOCK_TIMEOUT_MS' && v !== undefined)) as Record<string, string>;
  const client = new Client({ name: 'tug-lock-wait', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe', env }));
  let running!: () => void;
  const started = new Promise<void>((resolve) => (running = resolve));
  const first = client.callTool(
    { name: 'tug_edit_file', arguments: { path: 'app.py', old_text: 'return 1', new_text: 'return 2', verify: 'tests', test_command: ['{python}', '-c', 'import time; time.sleep(6)'] } },
    undefined,
    { onprogress: (p) => (/tests running/.test(p.message ?? '') ? running() : undefined) },
  );
  await started;
  const refused = await client.callTool({ name: 'tug_edit_file', arguments: { path: 'other.py', old_text: 'x = 1', new_text: 'x = 3', no_wait: true } });
  t.like((refused.structuredContent as any).error, { code: 'SessionLocked' });
  const short = await client.callTool({ name: 'tug_edit_file', arguments: { path: 'other.py', old_text: 'x = 1', new_text: 'x = 4', wait_s: 0.5 } });
  t.like((short.structuredContent as any).error, { code: 'SessionLocked' });
  const messages: string[] = [];
  const second = await client.callTool({ name: 'tug_edit_file', arguments: { path: 'other.py', old_text: 'x = 1', new_text: 'x = 2' } }, undefined, {
    onprogress: (p) => messages.push(p.message ?? ''),
  });
  t.falsy(second.isError, JSON.stringify(second.structuredContent));
  t.true(messages.some((m) => /waiting for the session lock/.test(m)), JSON.stringify(messages));
  const done = await first;
  t.falsy(done.isError, JSON.stringify(done.structuredContent));
  await client.close();
  await repo.cleanup();
});
