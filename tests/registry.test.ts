// The operation registry as a library user sees it: names, JSON Schemas for tools, and typed execution.
import test from 'ava';
import { z } from 'zod';
import { findOperation, operations, TugError } from '../lib/index.js';
import { makeRepo } from './helpers/repo.js';

test('every operation has a unique name and tool name, a description and JSON Schemas', (t) => {
  const names = new Set<string>();
  for (const op of operations) {
    t.false(names.has(op.tool), op.tool);
    names.add(op.tool);
    t.regex(op.tool, /^tug_[a-z_]+$/);
    t.true(op.description.length > 20);
    const input = z.toJSONSchema(op.input, { io: 'input' }) as Record<string, unknown>;
    t.is(input['type'], 'object', op.name);
    t.truthy(z.toJSONSchema(op.output));
  }
  t.deepEqual(operations.map((o) => o.tool), ['tug_snapshot', 'tug_analyze_impact', 'tug_rename_symbol', 'tug_apply_patchset', 'tug_verify', 'tug_undo', 'tug_session_status', 'tug_clean', 'tug_toolchain', 'tug_read_file', 'tug_list_files', 'tug_list_directory', 'tug_grep_file', 'tug_edit_file', 'tug_write_file', 'tug_create_file', 'tug_delete_file', 'tug_move_file', 'tug_apply_patch', 'tug_run_command', 'tug_log', 'tug_show', 'tug_doctor', 'tug_extract_variable', 'tug_extract_function', 'tug_inline', 'tug_organize_imports', 'tug_move_symbol', 'tug_change_signature', 'tug_assists', 'tug_assist', 'tug_replay', 'tug_check_merge', 'tug_run_plan']);
});

test('a library user can run an operation and gets the same contract as the CLI', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const snapshot = findOperation('tug_snapshot')!;
  const out = (await snapshot.execute(snapshot.input.parse({ workspace: repo.root }), {})) as { snapshot_id: string };
  t.is(out.snapshot_id, await repo.git('rev-parse', 'HEAD^{tree}'));
  const apply = findOperation('apply-patchset')!;
  const error = await t.throwsAsync(
    apply.execute(apply.input.parse({ workspace: repo.root, patchset: { edits: [{ file: 'nope.py', line: 1, col: 1, old_text: 'x', new_text: 'y' }] } }), {}),
  );
  t.true(error instanceof TugError);
  t.is((error as TugError).code, 'FileNotFound');
  t.is((error as TugError).exitCode, 3);
  await repo.cleanup();
});
