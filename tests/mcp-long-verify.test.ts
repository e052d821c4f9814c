// A rename whose tests outlast the official SDK client's default request timeout (60 s) succeeds through that client
// with its default options plus resetTimeoutOnProgress (without it the client would cancel the call at 60 s), and the
// same through a task handle (issue 29; its 150 s is the size of a slow suite, not a threshold). What the case needs is
// a verification longer than that timeout, so the sleep is the SDK's own default plus 15 s (75 s today): the call
// outlives the timeout only because progress keeps resetting it. The two tests run side by side, so the file holds one
// of ava's two places for about one sleep at almost no CPU. TUG_LONG_VERIFY_S shortens the sleep for a quick local run.
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { makeRepo } from './helpers/repo.js';
import { TUG_BIN } from './helpers/cli.js';

const SLEEP_S = Number(process.env['TUG_LONG_VERIFY_S'] ?? DEFAULT_REQUEST_TIMEOUT_MSEC / 1000 + 15);
const SOURCE = { 'app.py': 'def total(items):\n    return sum(items)\n\n\nprint(total([1, 2]))\n' };
const ARGS = { file: 'app.py', line: 1, column: 5, new_name: 'sum_all', verify: 'tests', test_command: ['{python}', '-c', `import time; time.sleep(${SLEEP_S})`] };

async function connect(root: string): Promise<Client> {
  const client = new Client({ name: 'tug-long-verify', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: root, stderr: 'pipe' }));
  return client;
}

test(`a rename whose tests take ${SLEEP_S} s: default client options plus resetTimeoutOnProgress`, async (t) => {
  // Only a guard against a hang: ten times the sleep.
  t.timeout(SLEEP_S * 10_000 + 60_000);
  const repo = await makeRepo(SOURCE);
  const client = await connect(repo.root);
  try {
    let notifications = 0;
    const started = Date.now();
    const result = await client.callTool({ name: 'tug_rename_symbol', arguments: ARGS }, undefined, {
      onprogress: () => (notifications += 1),
      resetTimeoutOnProgress: true,
    });
    t.falsy(result.isError, JSON.stringify(result.structuredContent));
    t.regex(String((result.structuredContent as any).git.branch), /^tug\//);
    t.is((result.structuredContent as any).verification.status, 'passed');
    t.true(notifications > 0);
    // Not a timing target: the sleep alone makes the call outlast the client's default timeout; this keeps the case
    // honest if the sleep or the SDK's default ever change.
    if (SLEEP_S * 1000 > DEFAULT_REQUEST_TIMEOUT_MSEC) t.true(Date.now() - started > DEFAULT_REQUEST_TIMEOUT_MSEC, 'the call outlived the default request timeout');
  } finally {
    // Also when the call failed: an open client keeps its server (and the file) running until ava's timeout.
    await client.close();
    await repo.cleanup();
  }
});

test(`the same ${SLEEP_S} s rename through a task handle`, async (t) => {
  t.timeout(SLEEP_S * 10_000 + 60_000);
  const repo = await makeRepo(SOURCE);
  const client = await connect(repo.root);
  try {
    let result: any;
    let created = false;
    // Default request options: each status poll is a short request of its own.
    for await (const message of client.experimental.tasks.callToolStream({ name: 'tug_rename_symbol', arguments: ARGS }, CallToolResultSchema, { task: { ttl: 3_600_000 } })) {
      if (message.type === 'taskCreated') created = true;
      if (message.type === 'result') result = message.result;
      if (message.type === 'error') t.fail(String(message.error));
    }
    t.true(created);
    t.falsy(result?.isError, JSON.stringify(result));
    t.is(result.structuredContent.verification.status, 'passed');
  } finally {
    await client.close();
    await repo.cleanup();
  }
});
