// A host's tool whose result breaks its own output schema is ProviderContractViolation naming the provider and the tool,
// through agentTools() and through MCP (the official client used to get a protocol error, agentTools the bad result).
import test from 'ava';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { agentTools, defineOperation, executeTool, type ToolProvider } from '../lib/index.js';
import { PROJECT_ROOT } from './helpers/golden.js';
import { makeRepo } from './helpers/repo.js';

/** The host's tool, as source: the same text is the in-process provider and the MCP host's. */
const PROVIDER_SOURCE = `{
  name: 'sloppy-host',
  operations: [
    defineOperation({
      name: 'count-words',
      tool: 'host_count_words',
      description: 'Count words.',
      input: z.object({ text: z.string() }),
      output: z.object({ status: z.literal('ok'), words: z.number().int() }),
      annotations: { readOnly: true, destructive: false, idempotent: true },
      // The bug: a string where the schema promises an integer.
      execute: async (input) => ({ status: 'ok', words: String(input.text.split(' ').length) }),
    }),
  ],
}`;

const SLOPPY = new Function('z', 'defineOperation', `return ${PROVIDER_SOURCE};`)(z, defineOperation) as ToolProvider;

const HOST = `
import { z } from 'zod';
import { defineOperation, serveMcpStdio } from 'tugtool';
await serveMcpStdio({ workspace: process.cwd(), providers: [${PROVIDER_SOURCE}] });
`;

function expectViolation(t: any, error: any): void {
  t.is(error?.code, 'ProviderContractViolation', JSON.stringify(error));
  t.is(error.exit_code, 10);
  t.like(error.details, { provider: 'sloppy-host', tool: 'host_count_words' });
  t.is(error.details.issues[0].path, 'words');
  t.regex(error.message, /tool provider sloppy-host: host_count_words returned/);
  t.notRegex(error.hint, /bug in tug/);
}

test('agentTools and executeTool: a result that breaks the provider\'s schema is ProviderContractViolation', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'x\n' });
  const tool = agentTools({ workspace: repo.root, providers: [SLOPPY] }).find((candidate) => candidate.name === 'host_count_words')!;
  // agentTools' failure shape: `error` is "Code: message", beside code, exit_code, hint and details.
  const flat = (r: any) => ({ ...r, message: r.error });
  expectViolation(t, flat(await tool.execute({ text: 'one two' })));
  expectViolation(t, flat(await executeTool('host_count_words', { text: 'a b c' }, { workspace: repo.root, providers: [SLOPPY] })));
  await repo.cleanup();
});

test('MCP through the official client: an isError result naming the provider, and the connection stays usable', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'x\n' });
  const script = path.join(PROJECT_ROOT, 'dist', 'mcp-host-sloppy.mjs');
  await writeFile(script, HOST);
  const client = new Client({ name: 'tug-provider-contract-test', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [script], cwd: repo.root, stderr: 'pipe' }));
  const result = await client.callTool({ name: 'host_count_words', arguments: { text: 'one two' } });
  t.true(result.isError);
  expectViolation(t, (result.structuredContent as any).error);
  const snapshot = await client.callTool({ name: 'tug_snapshot', arguments: {} });
  t.falsy(snapshot.isError, JSON.stringify(snapshot.structuredContent));
  await client.close();
  await repo.cleanup();
});
