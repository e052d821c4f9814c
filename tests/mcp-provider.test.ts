// A host's ToolProvider served through tug's MCP serving (a real host binary, the official client) and agentTools():
// listed after tug's tools, with strict inputs, workspace confinement, the error envelope and output schemas.
import test from 'ava';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { agentTools, availableTools, buildFunctionDeclarations, executeTool, registryWith } from '../lib/index.js';
import { PROJECT_ROOT } from './helpers/golden.js';
import { makeRepo } from './helpers/repo.js';
import { LINES_PROVIDER } from './helpers/line-count-provider.js';

const HOST = `
import { serveMcpStdio } from 'tugtool';
import { LINES_PROVIDER } from './tests/helpers/line-count-provider.js';
await serveMcpStdio({ workspace: process.cwd(), providers: [LINES_PROVIDER] });
`;

test('a host serves its provider beside tug over MCP, with the same guards', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'one\ntwo\nthree\n' });
  const other = await makeRepo({ 'b.txt': 'x\n' });
  const script = path.join(PROJECT_ROOT, 'dist', 'mcp-host-example.mjs');
  await writeFile(script, HOST);
  const client = new Client({ name: 'tug-provider-test', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [script], cwd: repo.root, stderr: 'pipe' }));
  const { tools } = await client.listTools();
  t.is(tools.at(-1)!.name, 'host_count_lines');
  t.true(tools.some((tool) => tool.name === 'tug_rename_symbol'));
  t.like(tools.at(-1)!.annotations, { readOnlyHint: true, destructiveHint: false, openWorldHint: false });
  const full = JSON.parse(String(((await client.readResource({ uri: 'workspace://tool/host_count_lines' })).contents[0] as { text: string }).text));
  t.truthy(full.inputSchema.properties['workspace_path']);

  const counted = await client.callTool({ name: 'host_count_lines', arguments: { path: 'a.txt' } });
  t.falsy(counted.isError, JSON.stringify(counted.structuredContent));
  t.deepEqual(counted.structuredContent, { status: 'ok', path: 'a.txt', lines: 3 });
  const typo = await client.callTool({ name: 'host_count_lines', arguments: { pth: 'a.txt' } });
  t.like((typo.structuredContent as any).error, { code: 'InvalidArgument', details: { argument: 'pth', did_you_mean: 'path' } });
  const outside = await client.callTool({ name: 'host_count_lines', arguments: { path: 'b.txt', workspace_path: other.root } });
  t.like((outside.structuredContent as any).error, { code: 'PathOutsideWorkspace', exit_code: 2 });
  const missing = await client.callTool({ name: 'host_count_lines', arguments: { path: 'nope.txt' } });
  t.like((missing.structuredContent as any).error, { code: 'FileNotFound', exit_code: 3 });
  await client.close();
  await repo.cleanup();
  await other.cleanup();
});

test('agentTools({ providers }) lists and runs provider tools; a name already taken is refused', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'one\n' });
  const tool = agentTools({ workspace: repo.root, providers: [LINES_PROVIDER] }).find((candidate) => candidate.name === 'host_count_lines')!;
  t.like(await tool.execute({ path: 'a.txt' }), { lines: 1, exit_code: 0 });
  t.true(availableTools({ providers: [LINES_PROVIDER] }).includes('host_count_lines'));
  t.false(availableTools().includes('host_count_lines'));
  t.true(buildFunctionDeclarations({ providers: [LINES_PROVIDER] }).some((d) => d.name === 'host_count_lines'));
  t.like(await executeTool('host_count_lines', { path: 'a.txt' }, { workspace: repo.root, providers: [LINES_PROVIDER] }), { lines: 1, exit_code: 0 });
  const clash = { name: 'clash', operations: [{ ...LINES_PROVIDER.operations[0]!, name: 'snapshot', tool: 'host_snapshot' }] };
  t.throws(() => registryWith([clash]), { message: /snapshot is already taken by tug/ });
  await repo.cleanup();
});
