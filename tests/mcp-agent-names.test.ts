// Wrong names an agent plausibly sends get a coded answer that says what was meant: parameter names from other tool sets,
// a tool name cut short, names that are members of every JS object, a path too long for any file system, bad --args JSON.
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makeRepo } from './helpers/repo.js';
import { TUG_BIN, tug } from './helpers/cli.js';

const FILES = { 'app.py': 'def total(items):\n    return sum(items)\n', 'lib.py': 'def helper():\n    return 1\n' };

test('did_you_mean for parameter names from other tool sets, and for a tool name cut short', async (t) => {
  const repo = await makeRepo(FILES);
  const client = new Client({ name: 'tug-names', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe' }));
  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ['tug_read_file', { file_path: 'app.py' }, 'file_path', 'path'],
    ['tug_undo', { undo_token: 'undo_0000' }, 'undo_token', 'token'],
    ['tug_rename_symbol', { file: 'app.py', line: 1, column: 5, name: 'x' }, 'name', 'new_name'],
    ['tug_move_symbol', { file: 'lib.py', line: 1, column: 5, to: 'helpers' }, 'to', 'destination'],
    ['tug_move_file', { from: 'lib.py', destination_path: 'b.py' }, 'from', 'source_path'],
    ['tug_toolchain', { lang: 'python', action: 'info' }, 'lang', 'language'],
  ];
  for (const [tool, args, wrong, meant] of cases) {
    const result: any = await client.callTool({ name: tool, arguments: args });
    t.true(result.isError, tool);
    t.like(result.structuredContent.error, { code: 'InvalidArgument', details: { argument: wrong, did_you_mean: meant } }, `${tool} ${wrong}`);
  }
  const unknown = await client.callTool({ name: 'tug_rename', arguments: {} }).catch((error: any) => error);
  t.regex(String(unknown.message), /did you mean tug_rename_symbol/);
  t.is(unknown.data?.did_you_mean, 'tug_rename_symbol');
  await client.close();
  await repo.cleanup();
});

test('parameters named constructor or toString, a 1 MB path: InvalidArgument, never InternalError', async (t) => {
  const repo = await makeRepo(FILES);
  const client = new Client({ name: 'tug-names', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe' }));
  for (const args of [{ path: 'app.py', constructor: 1 }, { path: 'app.py', toString: 'x' }, { path: 'app.py', __proto__x: 1 }, { path: 'a'.repeat(1024 * 1024) }]) {
    const result: any = await client.callTool({ name: 'tug_read_file', arguments: args });
    t.like(result.structuredContent.error, { code: 'InvalidArgument', exit_code: 2 }, Object.keys(args).join());
  }
  const bigMove: any = await client.callTool({ name: 'tug_move_file', arguments: { source_path: 'lib.py', destination_path: `${'d/'.repeat(300_000)}x.py` } });
  t.like(bigMove.structuredContent.error, { code: 'InvalidArgument', details: { argument: 'destination_path' } });
  await client.close();
  const cli = await tug(repo.root, ['tool', 'constructor', '--args', '{}']);
  t.is(cli.json.code, 'InvalidArgument');
  await repo.cleanup();
});

test('tug tool NAME --args with bad JSON answers in the tool contract', async (t) => {
  const repo = await makeRepo(FILES);
  const run = await tug(repo.root, ['tool', 'read_file', '--args', '{bad']);
  t.is(run.exitCode, 2);
  t.like(run.json, { code: 'InvalidArgument', exit_code: 2, details: { argument: 'args' } });
  t.regex(run.json.error, /^InvalidArgument: /);
  t.false('status' in run.json, 'not the CLI envelope');
  await repo.cleanup();
});

test('read-only tools that run a program the agent names say openWorld; writes that may overwrite say destructive', async (t) => {
  const repo = await makeRepo(FILES);
  const client = new Client({ name: 'tug-names', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe' }));
  const { tools } = await client.listTools();
  for (const name of ['tug_analyze_impact', 'tug_verify']) {
    const tool = tools.find((x) => x.name === name)!;
    t.like(tool.annotations, { readOnlyHint: true, openWorldHint: true }, name);
  }
  // With apply or commit these overwrite files or move the current branch: the hint says what the worst call does.
  for (const name of ['tug_rename_symbol', 'tug_move_symbol', 'tug_change_signature', 'tug_extract_variable', 'tug_extract_function', 'tug_inline', 'tug_organize_imports', 'tug_edit_file', 'tug_create_file']) {
    t.like(tools.find((x) => x.name === name)!.annotations, { readOnlyHint: false, destructiveHint: true }, name);
  }
  await client.close();
  await repo.cleanup();
});

test("the seed's replaced parameters are answered with what to do instead", async (t) => {
  const repo = await makeRepo(FILES);
  const client = new Client({ name: 'tug-names', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe' }));
  const cases: Array<[string, Record<string, unknown>, string, RegExp]> = [
    ['tug_snapshot', { force_refresh: true }, 'force_refresh', /fresh snapshot/],
    ['tug_verify', { files: ['app.py'] }, 'files', /whole snapshot/],
    ['tug_change_signature', { file: 'app.py', line: 1, column: 5, new_params: [], update_call_sites: true }, 'update_call_sites', /always rewritten/],
    ['tug_apply_patchset', { patch_id: 'p1' }, 'patch_id', /patchset: \{edits/],
    ['tug_apply_patchset', { edits: [{ file: 'app.py', old_text: 'sum', new_text: 'max' }] }, 'edits', /inside patchset/],
  ];
  for (const [tool, args, argument, why] of cases) {
    const result: any = await client.callTool({ name: tool, arguments: args });
    t.like(result.structuredContent.error, { code: 'InvalidArgument', details: { argument } }, tool);
    t.regex(result.structuredContent.error.message, why, tool);
  }
  await client.close();
  await repo.cleanup();
});
