// Every MCP tool against the CLI: the same calls on two identical repositories give the same JSON, kept as goldens.
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { operations } from '../lib/index.js';
import { expectGolden } from './helpers/golden.js';
import { makeRepo, type TestRepo } from './helpers/repo.js';
import { patchset, tug, TUG_BIN } from './helpers/cli.js';
import { privateRoot } from '../lib/workspace/private-dir.js';

const FILES = { 'app.py': 'def total(items):\n    return sum(items)\n\n\nprint(total([1, 2]))\n', 'use.py': 'from app import total\n\nvalue = total([3])\n' };
const EDITS = [{ file: 'use.py', line: 3, col: 1, old_text: 'value', new_text: 'result' }];
const TOKEN = { token: '' };
const LOG = { id: '' };

interface Step {
  tool: string;
  cli: () => string[];
  mcp: () => Record<string, unknown>;
  input?: string;
  /** Run through `tug tool NAME`, which adds the seed contract's `exit_code: 0` to a success. */
  agent?: boolean;
  /** The call is refused through both doors: the error envelopes are compared instead. */
  expectError?: boolean;
}

/** A file tool: `tug tool <seed name> --args JSON` on the CLI, `tug_<name>` over MCP, same arguments. */
function agentStep(seedName: string, args: Record<string, unknown>): Step {
  return { tool: `tug_${seedName}`, cli: () => ['tool', seedName, '--args', JSON.stringify(args)], mcp: () => args, agent: true };
}

const ONTO = 'tug/edit/parity';
const PATCH = '--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,2 @@\n def total(items):\n-    return sum(items)\n+    return sum(items, 0)\n';

/** A plan: a rename, then a move of the renamed function planned on the tree the rename made. */
const PLAN = [
  { operation: 'rename_symbol', file: 'app.py', line: 1, column: 5, new_name: 'sum_all' },
  { operation: 'move-symbol', file: 'app.py', line: 1, column: 5, destination: 'totals' },
];

const STEPS: Step[] = [
  { tool: 'tug_snapshot', cli: () => ['snapshot'], mcp: () => ({}) },
  { tool: 'tug_analyze_impact', cli: () => ['analyze-impact', 'rename-symbol', '--at', 'app.py:1:5', '--to', 'sum_all'], mcp: () => ({ file: 'app.py', line: 1, column: 5, new_name: 'sum_all' }) },
  { tool: 'tug_rename_symbol', cli: () => ['rename', 'app.py:1:5', 'sum_all'], mcp: () => ({ file: 'app.py', line: 1, column: 5, new_name: 'sum_all' }) },
  // Replayed on the tree it was made on: the same commit, so the same branch and undo token.
  { tool: 'tug_replay', cli: () => ['replay', 'tug/rename/total-to-sum_all', '--verify', 'syntax'], mcp: () => ({ branch: 'tug/rename/total-to-sum_all', verify: 'syntax' }) },
  { tool: 'tug_check_merge', cli: () => ['check-merge', 'tug/rename/total-to-sum_all'], mcp: () => ({ branch: 'tug/rename/total-to-sum_all' }) },
  { tool: 'tug_apply_patchset', cli: () => ['apply-patchset', '-f', '-'], mcp: () => ({ patchset: { edits: EDITS } }), input: patchset(EDITS) },
  { tool: 'tug_verify', cli: () => ['verify'], mcp: () => ({}) },
  { tool: 'tug_undo', cli: () => ['undo', TOKEN.token], mcp: () => ({ token: TOKEN.token }) },
  { tool: 'tug_toolchain', cli: () => ['toolchain', 'python', 'info'], mcp: () => ({ language: 'python', action: 'info' }) },
  { tool: 'tug_session_status', cli: () => ['session', 'status'], mcp: () => ({}) },
  { tool: 'tug_clean', cli: () => ['clean'], mcp: () => ({}) },
  agentStep('read_file', { path: 'app.py', line_start: 1, line_end: 2 }),
  agentStep('list_files', { pattern: '*.py' }),
  agentStep('list_directory', {}),
  agentStep('grep_file', { pattern: 'total', context: 1 }),
  agentStep('edit_file', { path: 'use.py', old_text: 'value = ', new_text: 'amount = ', onto: ONTO }),
  agentStep('write_file', { path: 'use.py', content: 'from app import total\n\namount = total([4])\n', onto: ONTO }),
  agentStep('create_file', { path: 'pkg/new.py', content: 'x = 1\n', onto: ONTO }),
  agentStep('move_file', { source_path: 'pkg/new.py', destination_path: 'pkg/moved.py', onto: ONTO }),
  agentStep('delete_file', { path: 'pkg/moved.py', onto: ONTO }),
  agentStep('apply_patch', { patch: PATCH, onto: ONTO, apply: false }),
  agentStep('run_command', { command: 'cat use.py; ls' }),
  { tool: 'tug_log', cli: () => ['log', '-n', '3'], mcp: () => ({ n: 3 }) },
  { tool: 'tug_show', cli: () => ['show', LOG.id], mcp: () => ({ id: LOG.id }) },
  { tool: 'tug_doctor', cli: () => ['doctor'], mcp: () => ({}) },
  { tool: 'tug_extract_variable', cli: () => ['extract-variable', '--range', 'app.py:2:12-2:22', '--name', 'summed'], mcp: () => ({ file: 'app.py', line: 2, column: 12, end_line: 2, end_column: 22, new_name: 'summed' }) },
  { tool: 'tug_extract_function', cli: () => ['extract-function', '--range', 'app.py:5:1-5:21', '--name', 'show'], mcp: () => ({ file: 'app.py', line: 5, column: 1, end_line: 5, end_column: 21, new_name: 'show' }) },
  { tool: 'tug_inline', cli: () => ['inline', '--at', 'use.py:3:1'], mcp: () => ({ file: 'use.py', line: 3, column: 1 }), expectError: true },
  // use.py is organized already: nothing to do is success (changed: false) through both doors.
  { tool: 'tug_organize_imports', cli: () => ['organize-imports', '--file', 'use.py'], mcp: () => ({ file: 'use.py' }) },
  { tool: 'tug_change_signature', cli: () => ['change-signature', '--at', 'app.py:1:5', '--params', '[{"name":"items"},{"name":"start","default":"0"}]'], mcp: () => ({ file: 'app.py', line: 1, column: 5, new_params: [{ name: 'items' }, { name: 'start', default: '0' }] }) },
  { tool: 'tug_move_symbol', cli: () => ['move', '--at', 'app.py:1:5', '--destination', 'totals'], mcp: () => ({ file: 'app.py', line: 1, column: 5, destination: 'totals' }) },
  { tool: 'tug_run_plan', cli: () => ['run', '--plan=-', '--verify', 'syntax'], mcp: () => ({ steps: PLAN, verify: 'syntax' }), input: JSON.stringify({ steps: PLAN }) },
];

/** Paths, times and (for session status) the warm workers a long-lived MCP server keeps by design. */
function normalize(value: unknown, repo: TestRepo): string {
  const copy = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  if ('workers' in copy && 'lock' in copy) copy['workers'] = '<warm in long-lived servers>';
  const python = copy['python'] as Record<string, unknown> | undefined;
  if (python && Array.isArray(python['searched'])) python['searched'] = '<depends on PATH>';
  // What doctor finds (versions, paths, which toolchains exist) is the machine's; the checks it makes are not.
  if (Array.isArray(copy['checks'])) copy['checks'] = (copy['checks'] as Array<{ name: string }>).map((c) => c.name);
  if (Array.isArray(copy['missing'])) copy['missing'] = '<depends on the machine>';
  const removed = copy['removed'] as Record<string, unknown> | undefined;
  if (removed && 'workers' in removed) removed['workers'] = '<warm in long-lived servers>';
  return JSON.stringify(copy, null, 2)
    .replaceAll(repo.root, '<workspace>')
    .replaceAll(privateRoot(), '<private>')
    .replace(/tug-sandboxes\/[0-9a-f]{12}(\/run-[0-9a-f]{10})?/g, 'tug-sandboxes/<session>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z/g, '<time>')
    .replace(/"[^"]*\/python3?(\.\d+)?"/g, '"<python>"');
}

function withoutExitCode(json: Record<string, unknown>): Record<string, unknown> {
  const { exit_code: exitCode, ...rest } = json;
  if (exitCode !== 0) throw new Error(`tug tool reported exit_code ${String(exitCode)}`);
  return rest;
}

/** Tools whose every use here needs a Cargo crate and rust-analyzer (tests/rust-assist-catalog.test.ts runs those). */
const RUST_ONLY: string[] = ['tug_assists', 'tug_assist'];

test('the steps cover every tool in the registry', (t) => {
  t.deepEqual([...STEPS.map((s) => s.tool), ...RUST_ONLY].sort(), operations.map((o) => o.tool).sort());
});

test('each MCP tool returns the CLI JSON for the same call', async (t) => {
  const viaCli = await makeRepo(FILES);
  const viaMcp = await makeRepo(FILES);
  const client = new Client({ name: 'tug-parity', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: viaMcp.root, stderr: 'pipe' }));
  // After listTools the SDK client checks every structuredContent against the tool's outputSchema (success and error).
  const { tools } = await client.listTools();
  t.is(tools.length, STEPS.length + RUST_ONLY.length);
  try {
    for (const step of STEPS) {
      const failed = await client.callTool({ name: step.tool, arguments: { ...step.mcp(), not_a_parameter: true } });
      t.true(failed.isError, step.tool);
      t.like((failed.structuredContent as { error: object }).error, { code: 'InvalidArgument', exit_code: 2 }, step.tool);
      const cli = await tug(viaCli.root, step.cli(), step.input === undefined ? {} : { input: step.input });
      t.is(cli.exitCode === 0, !step.expectError, `${step.tool}: ${cli.stdout}`);
      const mcp = await client.callTool({ name: step.tool, arguments: step.mcp() });
      t.is(Boolean(mcp.isError), Boolean(step.expectError), `${step.tool}: ${JSON.stringify(mcp.content)}`);
      const cliJson = step.agent && !('exit_code' in (mcp.structuredContent as object)) ? withoutExitCode(cli.json) : cli.json;
      // MCP errors also carry the exit class the CLI shows as its exit status.
      // MCP errors also carry the exit class, and hints that name tool parameters rather than flags (lib/mcp/hints.ts).
      const { exit_code: _exitClass, hint: _mcpHint, ...mcpError } = step.expectError ? (mcp.structuredContent as { error: Record<string, unknown> }).error : {};
      const { hint: _cliHint, ...cliError } = step.expectError ? (cliJson as { error: Record<string, unknown> }).error : {};
      const mcpJson = step.expectError ? { ...(mcp.structuredContent as object), error: mcpError } : mcp.structuredContent;
      const cliCompared = step.expectError ? { ...cliJson, error: cliError } : cliJson;
      t.is(normalize(mcpJson, viaMcp), normalize(cliCompared, viaCli), step.tool);
      await expectGolden(t, `mcp/${step.tool}.json`, `${normalize(cliJson, viaCli)}\n`);
      if (step.tool === 'tug_rename_symbol') TOKEN.token = cli.json.undo_token;
      if (step.tool === 'tug_log') LOG.id = cli.json.entries[0].id.slice(0, 6);
    }
  } finally {
    await client.close();
    await viaCli.cleanup();
    await viaMcp.cleanup();
  }
});
