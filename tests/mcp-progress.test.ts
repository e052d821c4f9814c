// Long work through the official SDK client: with resetTimeoutOnProgress a short request timeout survives a verification
// far longer than it, because tug sends progress every few seconds (12 s of tests against a 3 s timeout), and without
// the reset the same call times out. This is issue 29's case (a suite that outlasts the client's 60 s default) scaled
// down: the SDK applies an explicit `timeout` and its default (DEFAULT_REQUEST_TIMEOUT_MSEC) through the same code, and
// nothing in tug's call path has a deadline between these 12 s and a check's own 300 s (progress goes out every 2 s for
// as long as the call runs), so a 75 s sleep against the default proved nothing more and held one of ava's two places
// for 80 s (docs/PERFORMANCE.md, "Test suite run time", fifth pass). The task-handle case is in mcp-tasks.test.ts.
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { makeRepo } from './helpers/repo.js';
import { TUG_BIN } from './helpers/cli.js';

/** The client's request timeout: far below the 12 s the tests run. */
const TIMEOUT_MS = 3_000;
const SOURCE = { 'app.py': 'def total(items):\n    return sum(items)\n\n\nprint(total([1, 2]))\n' };

test('a rename whose tests run 12 s succeeds through a client with a 3 s timeout reset on progress', async (t) => {
  const repo = await makeRepo(SOURCE);
  const client = new Client({ name: 'tug-progress-test', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe' }));
  const seen: Array<Progress & { at: number }> = [];
  const started = Date.now();
  try {
    const result = await client.callTool(
      { name: 'tug_rename_symbol', arguments: { file: 'app.py', line: 1, column: 5, new_name: 'sum_all', verify: 'tests', test_command: ['{python}', '-c', 'import time; time.sleep(12)'] } },
      undefined,
      { timeout: TIMEOUT_MS, resetTimeoutOnProgress: true, onprogress: (p) => seen.push({ ...p, at: Date.now() - started }) },
    );
    t.falsy(result.isError, JSON.stringify(result.structuredContent));
    t.regex(String((result.structuredContent as any).git.branch), /^tug\//);
    t.is((result.structuredContent as any).verification.status, 'passed');
    // The call outlived the client's request timeout several times over: only the progress kept it alive.
    t.true(Date.now() - started > 3 * TIMEOUT_MS, 'the call outlasted the request timeout');
    // Never more than 5 s without a notification, and the running test check is named with its elapsed seconds.
    const gaps = seen.map((p, i) => p.at - (i === 0 ? 0 : seen[i - 1]!.at));
    t.true(Math.max(...gaps) < 5_000, JSON.stringify(seen));
    t.true(seen.some((p) => /tests running for \d+s/.test(p.message ?? '')), JSON.stringify(seen.map((p) => p.message)));
    t.true(seen.every((p, i) => i === 0 || p.progress > seen[i - 1]!.progress), 'progress increases');
  } finally {
    // Also when the call failed: an open client keeps its server (and the file) running until ava's timeout.
    await client.close();
    await repo.cleanup();
  }
});

test('without resetTimeoutOnProgress the same call times out: the test above proves the reset, not a fast machine', async (t) => {
  const repo = await makeRepo(SOURCE);
  const client = new Client({ name: 'tug-progress-test', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe' }));
  await t.throwsAsync(
    client.callTool(
      { name: 'tug_rename_symbol', arguments: { file: 'app.py', line: 1, column: 5, new_name: 'sum_all', verify: 'tests', test_command: ['{python}', '-c', 'import time; time.sleep(12)'] } },
      undefined,
      { timeout: TIMEOUT_MS, onprogress: () => undefined },
    ),
    { message: /timed out/i },
  );
  await client.close();
  await repo.cleanup();
});
