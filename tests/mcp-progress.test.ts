// Long work through the official SDK client: with resetTimeoutOnProgress a short request timeout survives a verification
// far longer than it, because tug sends progress every few seconds (scaled down: 12 s of tests against a 3 s timeout;
// the case with the client's default options, tests that outlast its 60 s default, is tests/mcp-long-verify.test.ts).
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { makeRepo } from './helpers/repo.js';
import { TUG_BIN } from './helpers/cli.js';

const SOURCE = { 'app.py': 'def total(items):\n    return sum(items)\n\n\nprint(total([1, 2]))\n' };

test('a rename whose tests run 12 s succeeds through a client with a 3 s timeout reset on progress', async (t) => {
  const repo = await makeRepo(SOURCE);
  const client = new Client({ name: 'tug-progress-test', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe' }));
  const seen: Array<Progress & { at: number }> = [];
  const started = Date.now();
  const result = await client.callTool(
    { name: 'tug_rename_symbol', arguments: { file: 'app.py', line: 1, column: 5, new_name: 'sum_all', verify: 'tests', test_command: ['{python}', '-c', 'import time; time.sleep(12)'] } },
    undefined,
    { timeout: 3_000, resetTimeoutOnProgress: true, onprogress: (p) => seen.push({ ...p, at: Date.now() - started }) },
  );
  t.falsy(result.isError, JSON.stringify(result.structuredContent));
  t.regex(String((result.structuredContent as any).git.branch), /^tug\//);
  // Never more than 5 s without a notification, and the running test check is named with its elapsed seconds.
  const gaps = seen.map((p, i) => p.at - (i === 0 ? 0 : seen[i - 1]!.at));
  t.true(Math.max(...gaps) < 5_000, JSON.stringify(seen));
  t.true(seen.some((p) => /tests running for \d+s/.test(p.message ?? '')), JSON.stringify(seen.map((p) => p.message)));
  t.true(seen.every((p, i) => i === 0 || p.progress > seen[i - 1]!.progress), 'progress increases');
  await client.close();
  await repo.cleanup();
});

test('without resetTimeoutOnProgress the same call times out: the test above proves the reset, not a fast machine', async (t) => {
  const repo = await makeRepo(SOURCE);
  const client = new Client({ name: 'tug-progress-test', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe' }));
  await t.throwsAsync(
    client.callTool(
      { name: 'tug_rename_symbol', arguments: { file: 'app.py', line: 1, column: 5, new_name: 'sum_all', verify: 'tests', test_command: ['{python}', '-c', 'import time; time.sleep(12)'] } },
      undefined,
      { timeout: 3_000, onprogress: () => undefined },
    ),
    { message: /timed out/i },
  );
  await client.close();
  await repo.cleanup();
});
