// `tug tool`, `tug log` and `tug show` through the real binary, and the registry's declarations against the tools they describe.
import test from 'ava';
import { agentTools, buildFunctionDeclarations, executeTool, findOperation, isToolSuccess } from '../lib/index.js';
import { toolParameters } from '../lib/tools.js';
import { makeRepo } from './helpers/repo.js';
import { tug } from './helpers/cli.js';

const SEED_NAMES = ['read_file', 'write_file', 'create_file', 'edit_file', 'delete_file', 'list_files', 'list_directory', 'grep_file', 'run_pty_cmd', 'apply_patch', 'move_file', 'run_command'];

test('tug tool --list prints every tool with a description and an object JSON Schema', async (t) => {
  const run = await tug('/', ['tool', '--list', '--json']);
  t.is(run.exitCode, 0, run.stderr);
  const names = run.json.tools.map((tool: { name: string }) => tool.name);
  for (const name of [...SEED_NAMES, 'tug_rename_symbol', 'tug_apply_patchset', 'tug_undo', 'tug_log']) t.true(names.includes(name), name);
  t.deepEqual(names, buildFunctionDeclarations().map((d) => d.name));
  for (const tool of run.json.tools) {
    t.is(tool.parameters.type, 'object', tool.name);
    t.true(tool.description.length > 20);
  }
  const edit = run.json.tools.find((tool: { name: string }) => tool.name === 'edit_file');
  t.deepEqual(edit.parameters.required, ['path', 'old_text', 'new_text']);
  t.false(edit.annotations.readOnlyHint);
  t.deepEqual(Object.keys(edit.annotations).sort(), ['destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint', 'title']);
});

test('declarations match the tools: seed parameter names, required fields, no anyOf/oneOf/allOf (seed 001 gap 9)', (t) => {
  const declared = new Map(buildFunctionDeclarations().map((d) => [d.name, d]));
  const expect: Record<string, string[]> = {
    read_file: ['path', 'line_start', 'line_end'],
    write_file: ['path', 'content'],
    create_file: ['path', 'content'],
    edit_file: ['path', 'old_text', 'new_text', 'display_description'],
    delete_file: ['path'],
    list_files: ['path', 'pattern', 'recursive'],
    list_directory: ['path'],
    grep_file: ['pattern', 'path', 'include'],
    run_pty_cmd: ['command', 'cwd', 'timeout'],
    apply_patch: ['patch'],
  };
  for (const [name, params] of Object.entries(expect)) {
    const properties = Object.keys((declared.get(name)!.parameters as { properties: object }).properties);
    for (const param of params) t.true(properties.includes(param), `${name}.${param}`);
  }
  for (const declaration of declared.values()) {
    const text = JSON.stringify(declaration.parameters);
    t.false(/"(anyOf|oneOf|allOf)"/.test(text), declaration.name);
    const operation = findOperation(declaration.name)!;
    t.truthy(operation, declaration.name);
    t.deepEqual(declaration.parameters, toolParameters(operation));
    const properties = Object.keys((declaration.parameters as { properties: object }).properties);
    t.true(properties.includes('workspace_path') && !properties.includes('workspace') && !properties.includes('session_dir'), declaration.name);
  }
});

test('tug tool NAME --args runs one tool; --args - reads stdin; failures exit with their code and keep the seed contract', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const read = await tug(repo.root, ['tool', 'read_file', '--args', '{"path":"a.py"}']);
  t.is(read.exitCode, 0);
  t.true(isToolSuccess(read.json));
  const edit = await tug(repo.root, ['tool', 'edit_file', '--args', '-'], { input: '{"path":"a.py","old_text":"x = 1","new_text":"x = 2"}' });
  t.is(edit.exitCode, 0, edit.stdout);
  t.is(await repo.readText('a.py'), 'x = 2\n');
  const missing = await tug(repo.root, ['tool', 'read_file', '--args', '{"path":"nope.py"}']);
  t.is(missing.exitCode, 3);
  t.is(missing.json.code, 'FileNotFound');
  t.is(missing.json.exit_code, 3);
  const command = await tug(repo.root, ['tool', 'run_pty_cmd', '--args', '{"command":"exit 7"}']);
  t.is(command.exitCode, 1);
  t.is(command.json.exit_code, 7);
  t.false(isToolSuccess(command.json));
  const unknown = await tug(repo.root, ['tool', 'no_such_tool']);
  t.is(unknown.exitCode, 2);
  t.regex(unknown.json.error, /unknown tool/);
  const badJson = await tug(repo.root, ['tool', 'read_file', '--args', '{path']);
  t.is(badJson.exitCode, 2);
  t.is(badJson.json.code, 'InvalidArgument'); // the tool contract, as for every other failure of a tool call
  const notObject = await executeTool('read_file', ['a.py'], { workspace: repo.root });
  t.is(notObject.code, 'InvalidArgument');
  await repo.cleanup();
});

test('tug log lists newest first with -n; tug show finds an entry by prefix; unknown and ambiguous ids are errors', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n', 'b.py': 'y = 1\n' });
  const first = await executeTool('edit_file', { path: 'a.py', old_text: 'x = 1', new_text: 'x = 2' }, { workspace: repo.root });
  const second = await executeTool('tug_apply_patchset', { patchset: { edits: [{ file: 'b.py', line: 1, col: 1, old_text: 'y', new_text: 'z' }] }, apply: true }, { workspace: repo.root });
  t.true(isToolSuccess(first) && isToolSuccess(second));
  const log = await tug(repo.root, ['log']);
  t.is(log.exitCode, 0);
  t.deepEqual(log.json.entries.map((e: { operation: string }) => e.operation), ['apply-patchset', 'edit-file']);
  const [newest, oldest] = log.json.entries;
  t.like(newest, { tool: 'tug_apply_patchset', applied: true, files: ['b.py'], undo_token: second['undo_token'], commit: (second['git'] as { commit: string }).commit, verification: { status: 'passed', mode: 'syntax' } });
  t.like(oldest, { tool: 'edit_file', arguments: { path: 'a.py', old_text: 'x = 1', new_text: 'x = 2' }, snapshot_id: first['snapshot_id'] });
  t.regex(newest.time, /^\d{4}-\d\d-\d\dT/);
  t.is((await tug(repo.root, ['log', '-n', '1'])).json.entries.length, 1);
  const show = await tug(repo.root, ['show', oldest.id.slice(0, 5)]);
  t.deepEqual(show.json.entry, oldest);
  const none = await tug(repo.root, ['show', 'ffffffffffff']);
  t.is(none.exitCode, 3);
  t.is(none.json.error.code, 'LogEntryNotFound');
  const ambiguous = await executeTool('tug_show', { id: '' }, { workspace: repo.root });
  t.is(ambiguous.code, 'InvalidArgument');
  await repo.cleanup();
});

test('agentTools({workspace}) serves one workspace; workspace_path may name another unless the host confines it', async (t) => {
  const one = await makeRepo({ 'f.txt': 'one\n' });
  const two = await makeRepo({ 'f.txt': 'two\n' });
  const read = agentTools({ workspace: one.root }).find((tool) => tool.name === 'read_file')!;
  t.is((await read.execute({ path: 'f.txt', line_numbers: false }))['content'], 'one\n');
  t.is((await read.execute({ path: 'f.txt', line_numbers: false, workspace_path: two.root }))['content'], 'two\n');
  const old = await read.execute({ path: 'f.txt', workspace: two.root });
  t.is(old['code'], 'InvalidArgument');
  t.is((old['details'] as { did_you_mean: string }).did_you_mean, 'workspace_path');
  const confined = agentTools({ workspace: one.root, root: one.root }).find((tool) => tool.name === 'read_file')!;
  const outside = await confined.execute({ path: 'f.txt', workspace_path: two.root });
  t.is(outside['code'], 'PathOutsideWorkspace');
  t.is(outside['exit_code'], 2);
  await one.cleanup();
  await two.cleanup();
});
