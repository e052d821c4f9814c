// The tool list is cheap for a model: names, descriptions and input schemas of every tool together stay under 4k tokens
// (counted with a real tokenizer), descriptions are 1–3 sentences, parameters left out of the list are still accepted and
// described in workspace://tool/{name}, and output schemas share the error envelope through $defs.
import test from 'ava';
import { getEncoding } from 'js-tiktoken';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makeRepo } from './helpers/repo.js';
import { TUG_BIN } from './helpers/cli.js';

const TOKEN_BUDGET = 4_000;

test('the model-facing tool list is at most 4k tokens, with 1–3 sentence descriptions', async (t) => {
  const repo = await makeRepo({ 'app.py': 'def total(items):\n    return sum(items)\n' });
  const client = new Client({ name: 'tug-tool-list', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe' }));
  const { tools } = await client.listTools();
  const encoding = getEncoding('cl100k_base');
  const tokens = tools.reduce((sum, tool) => sum + encoding.encode(JSON.stringify({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })).length, 0);
  t.log(`${tools.length} tools, ${tokens} tokens (cl100k_base), tools/list ${JSON.stringify(tools).length} characters`);
  t.true(tokens <= TOKEN_BUDGET, `${tokens} tokens`);
  for (const tool of tools) {
    const sentences = (tool.description ?? '').split(/(?<=[.!?])\s+(?=[A-Z])/).filter(Boolean);
    t.true(sentences.length >= 1 && sentences.length <= 3, `${tool.name}: ${tool.description}`);
    const outputSchema = tool.outputSchema as unknown as { anyOf: unknown[]; $defs: Record<string, unknown> };
    t.deepEqual(outputSchema.anyOf[1], { $ref: '#/$defs/error' }, tool.name);
    t.truthy(outputSchema.$defs['error']);
    // Output schemas are for checking results: their prose lives in workspace://tool/{name}, not in every list.
    t.false(JSON.stringify(outputSchema).includes('"description":"'), `${tool.name}: output schema without descriptions`);
  }
  // Parameters the list leaves out are still accepted, and the tool's resource describes them.
  const rename = tools.find((tool) => tool.name === 'tug_rename_symbol')!;
  t.false('keep_alias' in (rename.inputSchema.properties ?? {}));
  const full = JSON.parse(String(((await client.readResource({ uri: 'workspace://tool/tug_rename_symbol' })).contents[0] as { text: string }).text));
  t.regex(full.inputSchema.properties.keep_alias.description, /alias/);
  t.true(JSON.stringify(full.outputSchema).includes('"description":"'), 'the resource keeps the described output schema');
  t.deepEqual(full.outputSchema.anyOf[1], { $ref: '#/$defs/error' });
  const result = await client.callTool({ name: 'tug_rename_symbol', arguments: { file: 'app.py', line: 1, column: 5, new_name: 'sum_all', keep_alias: true, no_wait: true, verify: 'syntax' } });
  t.falsy(result.isError, JSON.stringify(result.structuredContent));
  t.true((result.structuredContent as any).warnings.some((w: any) => w.code === 'AliasKept'));
  await client.close();
  await repo.cleanup();
});
