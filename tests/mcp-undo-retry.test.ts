// Retries and leftovers an agent meets: the same call twice gives the same branch and commit (idempotentHint is true);
// a second undo with revert answers "already undone"; workspace://last_patch forgets an undone change; a deleted
// file is not listed under files_written.
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makeRepo } from './helpers/repo.js';
import { TUG_BIN } from './helpers/cli.js';

const FILES = { 'app.py': 'def total(items):\n    return sum(items)\n\n\nprint(total([1, 2]))\n', 'old.txt': 'bye\n' };

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent;
}

test('retries are safe: same change, same branch; a second revert is already undone; last_patch forgets it', async (t) => {
  const repo = await makeRepo(FILES);
  const client = new Client({ name: 'tug-undo-retry', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe' }));
  const args = { file: 'app.py', line: 1, column: 5, new_name: 'sum_all', verify: 'syntax' };
  const first = await call(client, 'tug_rename_symbol', args);
  const again = await call(client, 'tug_rename_symbol', args);
  t.deepEqual(again.git, first.git, 'the same input on the same snapshot gives the same branch and commit');
  t.deepEqual((await repo.git('branch', '--list', 'tug/*')).split('\n').map((b) => b.trim()), [first.git.branch]);
  await repo.git('merge', '-q', '--ff-only', first.git.branch);
  const undone = await call(client, 'tug_undo', { token: first.undo_token, revert: true });
  t.truthy(undone.reverted);
  const twice = await call(client, 'tug_undo', { token: first.undo_token, revert: true });
  t.falsy(twice.reverted, 'no second revert commit');
  t.deepEqual(twice.already_undone, ['app.py']);
  t.deepEqual(twice.files_restored, []);
  t.is((await repo.git('log', '--format=%s')).split('\n').filter((s) => s.startsWith('Revert')).length, 1);
  const last = JSON.parse(String(((await client.readResource({ uri: 'workspace://last_patch' })).contents[0] as { text: string }).text));
  t.is(last.last, null, 'the undone change is not the last patch any more');
  const deleted = await call(client, 'tug_delete_file', { path: 'old.txt', verify: 'none' });
  t.true(deleted.applied);
  t.deepEqual(deleted.files_written, []);
  t.deepEqual(deleted.patch.files_deleted, ['old.txt']);
  await client.close();
  await repo.cleanup();
});
