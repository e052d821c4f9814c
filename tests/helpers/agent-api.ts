// Renders docs/AGENT_API.md from the registry itself, so the document cannot drift from the tools and codes.
import { z } from 'zod';
import { ERROR_CODES } from '../../lib/core/errors.js';
import { operations } from '../../lib/ops/registry.js';
import { toolAnnotations } from '../../lib/ops/operation.js';
import { toolParameters } from '../../lib/tools.js';
import { agentHint } from '../../lib/mcp/hints.js';

export function renderAgentApi(): string {
  const lines: string[] = [
    '# tug for agents: commands, tools, errors',
    '',
    'Generated from the operation registry by `tests/agent-api.test.ts` (`TUG_UPDATE_GOLDEN=1 npm test` rewrites it).',
    'The same operations are CLI commands (`tug <command>`, JSON on stdout when it is not a terminal),',
    'MCP tools (`tug mcp`), and library tools (`agentTools()` from `tugtool`); the JSON is identical.',
    '',
    '## Envelope and ordering',
    '',
    '- Every response starts with `status` (`ok` or `error`) and `schema_version` (`"1"`); operations that read',
    '  the workspace also carry `snapshot_id` (a git tree id).',
    '- Errors: `{"status":"error","schema_version":"1","snapshot_id"?,"error":{"code","message","hint","details"?,"location"?}}`.',
    '  Over MCP the error also carries `exit_code` (the CLI\'s exit status for it) and its hint names tool parameters;',
    '  it is an `isError` result whose `structuredContent` validates against the tool\'s `outputSchema` (success or error).',
    '- `references` are ordered by (file, line, col); `patch.edits` by (file, span.start); warnings with a',
    '  location by (file, line), the others first in a stable order. Keys appear in the order of the schemas below.',
    '- The same input gives byte-identical JSON: durations and the output of passing checks appear only with',
    '  `TUG_TIMINGS=1`.',
    '- Nothing to do is success for an idempotent operation (organize-imports): `status: ok`, `changed: false`,',
    '  exit 0, with no `git` block and no `undo_token` (no sandbox, commit or branch was made).',
    '',
    '## Agent tool registry',
    '',
    '- `tug tool --list` prints every tool (name, description, JSON Schema of the parameters, hints): the',
    "  `available_tools` / `build_function_declarations` of common agent tool registries. `tug tool NAME --args JSON` (or `--args -` for",
    "  stdin) runs one (`execute_tool`). The library offers the same as `agentTools()`, `buildFunctionDeclarations()`,",
    '  `availableTools()` and `executeTool(name, args, { workspace })`.',
    "- File tools keep the names agent tool registries use (`read_file`, `list_files`, `list_directory`, `grep_file`, `edit_file`,",
    '  `write_file`, `create_file`, `delete_file`, `move_file`, `apply_patch`, `run_command`, alias `run_pty_cmd`);',
    '  every other operation is a tool under its MCP name (`tug_rename_symbol`, …). Over MCP all are `tug_*`.',
    "- Success contract: a result is a success when it has no `error` field and its `exit_code` is 0. A failure is",
    '  `{error, code, exit_code, hint, details?}`; run_command returns the command\'s own `exit_code` and, when it',
    '  is not 0 or the command timed out, an `error`. `tug tool` exits 0 on success, the tug exit code on a tug',
    '  failure, and 1 when a command ran and failed.',
    '- Bad arguments: one `InvalidArgument` naming each field (`path: required, expected string; unknown parameter',
    '  "file_path"`). Paths are relative to the workspace: absolute paths, `..`, `.git/` and symlinks leading out',
    '  are refused (exit 2).',
    '- Edit tools go through the kernel: PatchSet → sandbox → verification (default `syntax`) → commit on',
    '  `tug/edit/<slug>` → applied to the working tree unless `apply: false`, with an `undo_token`. `onto: "tug/edit/<task>"`',
    "  computes the change against that branch's tip and adds the commit to it, so a task is one branch.",
    '- Parameter names are the same over MCP, `tug tool` and `agentTools()`: a symbol is `file`, `line`, `column`',
    '  (1-based, column in UTF-8 bytes) and a rename\'s target `new_name`; `tug_verify` takes `mode`. The CLI spells',
    '  them `--at FILE:LINE:COL --to NAME` and `tug verify --verify MODE`; a tool call that passes `at`, `to` or',
    '  `verify` to tug_verify is told the right name. The workspace is `workspace_path` (default: where the host runs;',
    '  `tug mcp` refuses paths outside the repository it was started in with `PathOutsideWorkspace`); the CLI\'s',
    '  `--workspace`/`-C` and `--session-dir` are host settings, not tool parameters. An unknown parameter is',
    '  `InvalidArgument` naming it, with `details.did_you_mean` and `details.accepted` (closest first).',
    '- Hints use the MCP names (`readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`), in `tools/list` and',
    '  `tug tool --list` alike.',
    '- Over MCP a result\'s text content is a short summary (what changed, branch, counts, the first errors); the whole',
    '  result is `structuredContent`. A string over 256 KB in it (a large patch, long check output) is cut, and the cut',
    '  says where the whole is: `workspace://cut/{id}`, read in pieces with `?offset=` (`next_offset` is null at the end).',
    '- `tools/list` shows each tool with a short description and the parameters a call usually needs (about 3.4k tokens',
    '  for all); the others are still accepted, and `workspace://tool/{name}` gives the full description and schema.',
    '- Long calls send `notifications/progress` at least every 2 s to a client that passed a `progressToken`',
    '  (stage, elapsed seconds, the running check and pytest\'s percentage), and stop at once on `notifications/cancelled`.',
    '  A write behind another waits for the session lock up to `wait_s` (default 600 s through MCP and agent tools, 30 s',
    '  on the command line) and says so in its progress; `no_wait: true` refuses at once with `SessionLocked`.',
    '- Every change, undo, command and review action is appended to the operation log (`tug log`, `tug show ID`, MCP resource',
    '  `workspace://log`).',
    '',
    '## Exit codes',
    '',
    '| exit | meaning |',
    '| --- | --- |',
    '| 0 | success |',
    '| 2 | invalid arguments or environment |',
    '| 3 | not found: symbol, file, position, undo token |',
    '| 4 | could not apply safely; nothing was written |',
    '| 5 | verification failed; nothing was committed or written |',
    '| 10 | internal error (a bug) |',
    '',
    '## Error codes',
    '',
    '| code | exit | meaning | what to do |',
    '| --- | --- | --- | --- |',
  ];
  for (const [code, entry] of Object.entries(ERROR_CODES)) lines.push(`| \`${code}\` | ${entry.exit} | ${entry.title} | ${entry.hint} |`);
  lines.push('', 'Hints for agents (MCP and tool results) where they differ from the CLI\'s:', '');
  for (const code of Object.keys(ERROR_CODES) as Array<keyof typeof ERROR_CODES>) {
    if (agentHint(code) !== ERROR_CODES[code].hint) lines.push(`- \`${code}\`: ${agentHint(code)}`);
  }
  lines.push('', '## Operations', '', 'Input is what a tool call passes (MCP, `tug tool`, `agentTools()`); the CLI maps its flags onto it.', '');
  for (const op of operations) {
    const a = toolAnnotations(op);
    const hints = Object.entries({ readOnlyHint: a.readOnlyHint, destructiveHint: a.destructiveHint, idempotentHint: a.idempotentHint, openWorldHint: a.openWorldHint })
      .map(([name, value]) => `\`${name}: ${value}\``)
      .join(', ');
    const agent = op.agentName ? ` (agent tool \`${op.agentName}\`)` : '';
    lines.push(`### \`${op.name}\` — tool \`${op.tool}\`${agent}`, '', op.description, '', `Hints: ${hints}.`, '', 'Input:', '', '```json');
    lines.push(JSON.stringify(toolParameters(op), null, 2), '```', '', 'Output (success; a failure is the error envelope above):', '', '```json');
    lines.push(JSON.stringify(z.toJSONSchema(op.output, { io: 'output', unrepresentable: 'any' }), null, 2), '```', '');
  }
  return `${lines.join('\n')}\n`;
}
