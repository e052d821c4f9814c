// Results that fit: through the official SDK client a 20 MB patch does not close the connection (its long strings are cut
// and readable in pieces as a resource), and the text content is a short summary, not a second copy of the result.
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makeRepo, type TestRepo } from './helpers/repo.js';
import { TUG_BIN } from './helpers/cli.js';

async function connect(repo: TestRepo): Promise<Client> {
  const client = new Client({ name: 'tug-results-test', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe' }));
  await client.listTools(); // the client checks every structuredContent against the tool's outputSchema from here on
  return client;
}

const text = (result: any): string => result.content.map((c: any) => c.text).join('\n');

test('deleting a 20 MB file: the result fits, the connection survives, and the cut diff reads back whole in pieces', async (t) => {
  const line = 'x'.repeat(99) + '\n';
  const big = line.repeat(200_000); // 20 MB
  const repo = await makeRepo({ 'big.txt': big, 'app.py': 'print(1)\n' });
  const client = await connect(repo);
  const result: any = await client.callTool({ name: 'tug_delete_file', arguments: { path: 'big.txt', verify: 'none' } });
  t.falsy(result.isError, text(result).slice(0, 2000));
  const size = JSON.stringify(result).length;
  t.true(size < 1024 * 1024, `the result is ${size} characters`);
  const diff: string = result.structuredContent.patch.unified_diff;
  const uri = /workspace:\/\/cut\/[0-9a-f]+/.exec(diff)?.[0];
  t.truthy(uri, diff.slice(-300));
  t.true(text(result).includes(uri!), 'the summary names the resource');
  // Read the whole diff back in pieces: it has every removed line.
  let offset = 0;
  let whole = '';
  for (;;) {
    const piece = JSON.parse(String(((await client.readResource({ uri: `${uri}?offset=${offset}` })).contents[0] as { text: string }).text));
    whole += piece.text;
    if (piece.next_offset === null) break;
    offset = piece.next_offset;
  }
  t.is(whole.split('\n').filter((l) => l === `-${line.trimEnd()}`).length, 200_000);
  // The connection still serves calls.
  const after: any = await client.callTool({ name: 'tug_read_file', arguments: { path: 'app.py' } });
  t.falsy(after.isError);
  await client.close();
  await repo.cleanup();
});

test('the text content is a short summary of a change and of an error, not the structured result again', async (t) => {
  const repo = await makeRepo({ 'app.py': 'def total(items):\n    return sum(items)\n\n\nprint(total([1, 2]))\n' });
  const client = await connect(repo);
  const rename: any = await client.callTool({ name: 'tug_rename_symbol', arguments: { file: 'app.py', line: 1, column: 5, new_name: 'sum_all', verify: 'syntax' } });
  t.falsy(rename.isError);
  const summary = text(rename);
  t.true(summary.includes(rename.structuredContent.git.branch), summary);
  t.true(summary.includes(rename.structuredContent.undo_token), summary);
  t.regex(summary, /1 file\(s\), 2 edit\(s\)/);
  t.throws(() => JSON.parse(summary), undefined, 'not JSON');
  t.true(summary.length < JSON.stringify(rename.structuredContent).length / 2, summary);
  const error: any = await client.callTool({ name: 'tug_rename_symbol', arguments: { file: 'app.py', line: 1, column: 5, new_name: 'class' } });
  t.true(error.isError);
  t.true(text(error).startsWith(`${error.structuredContent.error.code}: `), text(error));
  await client.close();
  await repo.cleanup();
});
