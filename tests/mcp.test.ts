// A real MCP client (the SDK's, over stdio) drives `tug mcp`: tool list, calls with CLI parity, errors and resources.
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makeRepo, type TestRepo } from './helpers/repo.js';
import { patchset, tug, TUG_BIN } from './helpers/cli.js';

const SOURCE = { 'app.py': 'def f():\n    return 1\n\nprint(f())\n' };
const EDITS = [
  { file: 'app.py', line: 1, col: 5, old_text: 'f', new_text: 'g' },
  { file: 'app.py', line: 4, col: 7, old_text: 'f', new_text: 'g' },
];

/** Every client made here, closed after the file's tests even when an assertion ended a test early (a server left running keeps the worker alive). */
const clients: Client[] = [];
test.after.always(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
});

async function connect(repo: TestRepo): Promise<Client> {
  const client = new Client({ name: 'tug-test', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe' }));
  clients.push(client);
  return client;
}

test('tools/list offers exactly the registry, with JSON Schemas and truthful hints', async (t) => {
  const repo = await makeRepo(SOURCE);
  const client = await connect(repo);
  const { tools } = await client.listTools();
  t.deepEqual(tools.map((tool) => tool.name), ['tug_snapshot', 'tug_analyze_impact', 'tug_rename_symbol', 'tug_apply_patchset', 'tug_verify', 'tug_undo', 'tug_session_status', 'tug_clean', 'tug_toolchain', 'tug_read_file', 'tug_list_files', 'tug_list_directory', 'tug_grep_file', 'tug_edit_file', 'tug_write_file', 'tug_create_file', 'tug_delete_file', 'tug_move_file', 'tug_apply_patch', 'tug_run_command', 'tug_log', 'tug_show', 'tug_doctor', 'tug_extract_variable', 'tug_extract_function', 'tug_inline', 'tug_organize_imports', 'tug_move_symbol', 'tug_change_signature', 'tug_assists', 'tug_assist', 'tug_replay', 'tug_check_merge', 'tug_run_plan']);
  for (const tool of tools) {
    t.is(tool.inputSchema.type, 'object');
    t.is(tool.outputSchema?.type, 'object');
    // workspace_path is accepted everywhere but left out of the (token-counted) list; the tool's full schema names it.
    const full = JSON.parse(String(((await client.readResource({ uri: `workspace://tool/${tool.name}` })).contents[0] as { text: string }).text));
    t.truthy(full.inputSchema.properties['workspace_path'], `${tool.name} accepts workspace_path`);
  }
  const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
  t.true(byName['tug_snapshot']!.annotations?.readOnlyHint);
  t.false(byName['tug_apply_patchset']!.annotations?.readOnlyHint);
  t.true(byName['tug_undo']!.annotations?.destructiveHint);
  await client.close();
  await repo.cleanup();
});

test('tools/call returns structuredContent equal to the CLI JSON for the same call', async (t) => {
  const repo = await makeRepo(SOURCE);
  const client = await connect(repo);
  const viaMcp = await client.callTool({ name: 'tug_apply_patchset', arguments: { patchset: { edits: EDITS }, verify: 'syntax' } });
  t.falsy(viaMcp.isError, JSON.stringify(viaMcp.content));
  const viaCli = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'syntax'], { input: patchset(EDITS) });
  t.deepEqual(viaMcp.structuredContent, viaCli.json);
  const snap = await client.callTool({ name: 'tug_snapshot', arguments: {} });
  t.deepEqual(snap.structuredContent, (await tug(repo.root, ['snapshot'])).json);
  const last = await client.readResource({ uri: 'workspace://last_patch' });
  t.deepEqual(JSON.parse(String((last.contents[0] as { text: string }).text)), viaCli.json);
  const files = await client.readResource({ uri: 'workspace://files' });
  t.deepEqual(JSON.parse(String((files.contents[0] as { text: string }).text)).files.map((f: any) => f.path), ['app.py']);
  await client.close();
  await repo.cleanup();
});

test('failures reach a client that listed the tools: isError results with code, message, hint and exit_code', async (t) => {
  const repo = await makeRepo(SOURCE);
  const client = await connect(repo);
  await client.listTools(); // the SDK client now validates structuredContent against each outputSchema
  const missing = await client.callTool({ name: 'tug_apply_patchset', arguments: { patchset: { edits: [{ ...EDITS[0], file: 'nope.py' }] } } });
  t.true(missing.isError);
  const { exit_code: exitCode, ...body } = (missing.structuredContent as any).error;
  t.is(body.code, 'FileNotFound');
  t.is(exitCode, 3);
  t.truthy(body.hint);
  const cli = await tug(repo.root, ['apply-patchset', '-f', '-'], { input: patchset([{ ...EDITS[0], file: 'nope.py' }]) });
  t.deepEqual({ ...(missing.structuredContent as any), error: body }, cli.json);
  t.is(cli.exitCode, exitCode);
  const invalid = await client.callTool({ name: 'tug_apply_patchset', arguments: { patchset: { edits: [{ file: 'app.py', new_text: 1 }] }, verify: 'sometimes' } });
  t.true(invalid.isError);
  const error = (invalid.structuredContent as any).error;
  t.is(error.code, 'InvalidArgument');
  t.is(error.exit_code, 2);
  t.false(/--[a-z]/.test(error.hint), error.hint);
  const paths = error.details.issues.map((i: any) => i.path);
  t.true(paths.includes('verify'));
  t.true(paths.includes('patchset.edits.0.new_text'));
  const misspelled = await client.callTool({ name: 'tug_rename_symbol', arguments: { file: 'app.py', line: 1, column: 5, new_nme: 'g' } });
  t.true(misspelled.isError);
  const strict = (misspelled.structuredContent as any).error;
  t.is(strict.details.argument, 'new_nme');
  t.is(strict.details.did_you_mean, 'new_name');
  t.is(strict.details.accepted[0], 'new_name');
  t.regex(strict.message, /"new_nme".*did you mean "new_name"/);
  await client.close();
  await repo.cleanup();
});

// Serial, and with a test command that takes a moment: the SDK client handles notifications a microtask late but
// responses at once, so a client that lags (a loaded machine) and reads the last notification in the same chunk as
// the response drops it (protocol.js _onnotification vs _onresponse).
test.serial('long calls send progress notifications to a client that asks for them', async (t) => {
  const repo = await makeRepo(SOURCE);
  const client = await connect(repo);
  const messages: string[] = [];
  const result = await client.callTool(
    { name: 'tug_apply_patchset', arguments: { patchset: { edits: EDITS }, verify: 'tests', test_command: ['{python}', '-c', 'import app, time; time.sleep(1)'] } },
    undefined,
    { onprogress: (progress) => messages.push(String(progress.message)) },
  );
  t.falsy(result.isError, JSON.stringify(result.content));
  t.true(messages.includes('preparing sandbox'), messages.join(', '));
  t.true(messages.includes('verifying (tests)'), messages.join(', '));
  await client.close();
  await repo.cleanup();
});

test('symbols and references resources agree with analyze-impact', async (t) => {
  const repo = await makeRepo({ 'app.py': 'def f():\n    return 1\n\n\nclass C:\n    def m(self):\n        return f()\n', 'use.py': 'from app import f\nf()\n' });
  const client = await connect(repo);
  const { resourceTemplates } = await client.listResourceTemplates();
  t.deepEqual(resourceTemplates.map((r) => r.uriTemplate), ['workspace://symbols{?file,kind,name}', 'workspace://references{?symbol_id}', 'workspace://log/{id}', 'workspace://tool/{name}', 'workspace://cut/{id}{?offset,length}']);
  const read = async (uri: string) => JSON.parse(String(((await client.readResource({ uri })).contents[0] as { text: string }).text));
  const symbols = await read('workspace://symbols?file=app.py');
  t.deepEqual(symbols.symbols.map((s: any) => `${s.kind}:${s.container ?? ''}:${s.name}`), ['function::f', 'class::C', 'method:C:m']);
  const f = symbols.symbols.find((s: any) => s.name === 'f');
  const impact = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'app.py:1:5', '--to', 'g']);
  t.is(f.id, impact.json.symbol.id);
  const refs = await read(`workspace://references?symbol_id=${f.id}`);
  t.deepEqual(
    refs.references.map((r: any) => `${r.location.file}:${r.location.line}:${r.location.col}`),
    impact.json.references.map((r: any) => `${r.location.file}:${r.location.line}:${r.location.col}`),
  );
  await t.throwsAsync(client.readResource({ uri: 'workspace://references?symbol_id=sym_000000000000' }), { message: /SymbolNotFound/ });
  await client.close();
  await repo.cleanup();
});

test('workspace://log lists what the tools did, newest first; workspace://log/{id} reads one entry', async (t) => {
  const repo = await makeRepo(SOURCE);
  const client = await connect(repo);
  const edit = await client.callTool({ name: 'tug_edit_file', arguments: { path: 'app.py', old_text: 'return 1', new_text: 'return 2' } });
  t.falsy(edit.isError, JSON.stringify(edit.content));
  const ran = await client.callTool({ name: 'tug_run_command', arguments: { command: 'exit 4' } });
  t.falsy(ran.isError, 'a failed command is a result, not a tool error');
  t.is((ran.structuredContent as { exit_code: number }).exit_code, 4);
  const read = async (uri: string) => JSON.parse(String(((await client.readResource({ uri })).contents[0] as { text: string }).text));
  const log = await read('workspace://log');
  t.deepEqual(log.entries.map((e: { operation: string }) => e.operation), ['run-command', 'edit-file']);
  t.is(log.entries[1].undo_token, (edit.structuredContent as { undo_token: string }).undo_token);
  const one = await read(`workspace://log/${log.entries[1].id.slice(0, 8)}`);
  t.deepEqual(one.entry, log.entries[1]);
  await t.throwsAsync(client.readResource({ uri: 'workspace://log/ffffff' }), { message: /LogEntryNotFound/ });
  await client.close();
  await repo.cleanup();
});
