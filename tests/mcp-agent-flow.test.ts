// An agent's session through the official MCP client end to end: list, read resources, analyze → rename → the user merges
// the branch → undo (files only, said plainly) and undo with revert (a revert commit). Every call goes after listTools(),
// so the SDK checks each structuredContent against the tool's outputSchema.
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makeRepo, type TestRepo } from './helpers/repo.js';
import { TUG_BIN } from './helpers/cli.js';

const FILES = { 'app.py': 'def total(items):\n    return sum(items)\n\n\nprint(total([1, 2]))\n', 'use.py': 'from app import total\n\nvalue = total([3])\n' };

async function connect(repo: TestRepo): Promise<Client> {
  const client = new Client({ name: 'tug-agent-flow', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe' }));
  await client.listTools();
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent;
}

async function resource(client: Client, uri: string): Promise<any> {
  return JSON.parse(String(((await client.readResource({ uri })).contents[0] as { text: string }).text));
}

async function renameAndMerge(repo: TestRepo, client: Client) {
  const symbols = await resource(client, 'workspace://symbols?name=total&kind=function');
  t_assert(symbols.symbols.length === 1, 'one function named total');
  const [symbol] = symbols.symbols;
  const position = { file: symbol.location.file, line: symbol.location.line, column: symbol.location.col };
  const impact = await call(client, 'tug_analyze_impact', { operation: 'rename_symbol', ...position, new_name: 'sum_all' });
  const references = await resource(client, `workspace://references?symbol_id=${impact.symbol.id}`);
  const rename = await call(client, 'tug_rename_symbol', { ...position, new_name: 'sum_all', verify: 'syntax' });
  await repo.git('merge', '--ff-only', rename.git.branch);
  return { impact, references, rename };
}

function t_assert(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

test('analyze → rename → merge → undo: files restored, HEAD left alone, and the result says so', async (t) => {
  const repo = await makeRepo(FILES);
  const client = await connect(repo);
  const { resources } = await client.listResources();
  t.deepEqual(resources.map((r) => r.uri), ['workspace://files', 'workspace://log', 'workspace://last_patch']);
  t.deepEqual((await resource(client, 'workspace://files')).files.map((f: any) => f.path), ['app.py', 'use.py']);
  const { impact, references, rename } = await renameAndMerge(repo, client);
  t.is(impact.impact.references_count, 4);
  t.is(impact.impact.files_affected, 2);
  t.false(rename.applied, 'a rename without apply says applied: false');
  t.deepEqual(await resource(client, 'workspace://last_patch'), rename);
  t.is(references.references.length, 4);
  const headAfterMerge = await repo.git('rev-parse', 'HEAD');
  t.is(headAfterMerge, rename.git.commit);

  const undo = await call(client, 'tug_undo', { token: rename.undo_token });
  t.deepEqual(undo.files_restored, ['app.py', 'use.py']);
  t.is(undo.branch_reset, null);
  t.false('reverted' in undo);
  const warning = undo.warnings.find((w: any) => w.code === 'MergedIntoHead');
  t.truthy(warning, JSON.stringify(undo.warnings));
  t.regex(warning.message, /did not move/);
  t.is(await repo.git('rev-parse', 'HEAD'), headAfterMerge, 'HEAD did not move');
  t.is(await repo.readText('app.py'), FILES['app.py']);
  t.regex(await repo.git('status', '--porcelain'), /M app\.py/);
  const log = await resource(client, 'workspace://log');
  t.deepEqual(log.entries.map((e: any) => e.operation), ['undo', 'rename-symbol']);
  await client.close();
  await repo.cleanup();
});

test('undo with revert after a merge records a revert commit on the branch; without a merge revert is refused', async (t) => {
  const repo = await makeRepo(FILES);
  const client = await connect(repo);
  const { rename } = await renameAndMerge(repo, client);
  const undo = await call(client, 'tug_undo', { token: rename.undo_token, revert: true });
  const head = await repo.git('rev-parse', 'HEAD');
  t.deepEqual(undo.reverted, { ref: 'refs/heads/main', from: rename.git.commit, to: head });
  t.is(await repo.git('rev-parse', 'HEAD^'), rename.git.commit);
  t.regex(await repo.git('log', '-1', '--format=%s'), /^Revert "/);
  t.is(await repo.git('status', '--porcelain'), '', 'working tree and index match the revert commit');
  t.is(await repo.readText('use.py'), FILES['use.py']);
  t.false(undo.warnings.some((w: any) => w.code === 'MergedIntoHead'));

  const other = await call(client, 'tug_edit_file', { path: 'use.py', old_text: 'value = ', new_text: 'amount = ', apply: false });
  const refused = await client.callTool({ name: 'tug_undo', arguments: { token: other.undo_token, revert: true } });
  t.true(refused.isError);
  t.like((refused.structuredContent as any).error, { code: 'InvalidArgument', details: { argument: 'revert' } });
  await client.close();
  await repo.cleanup();
});
