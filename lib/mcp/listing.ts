// The tool list a model reads on every conversation, kept small: a 1–3 sentence description per tool, and an input schema
// with the parameters a call usually needs. Every other parameter is still accepted; workspace://tool/{name} has the
// full schema with every description (docs/AGENT_API.md too).
import type { Operation } from '../ops/operation.js';
import { toolParameters } from '../tools.js';

/**
 * Parameters every change tool (or many tools) accepts that a call rarely needs: left out of tools/list, named once in
 * the server's instructions, described in workspace://tool/{name}.
 */
export const UNLISTED = new Set([
  'no_wait', 'wait_s', 'snapshot', 'keep_sandbox', 'python', 'typecheck_command', 'timeout', 'workspace_path', 'rust_analyzer',
  'include', 'exclude', 'rename_strings', 'rename_comments', 'keep_alias', 'include_unsure', 'safety', 'strict', 'display_description',
  'line_numbers', 'max_results', 'max_matches', 'case_insensitive', 'context', 'keep_definition', 'keep_reexport', 'force', 'confirm', 'overwrite',
]);

/** What a model needs to choose and call each tool; the operations' own descriptions (docs, CLI help) say more. */
const SUMMARIES: Record<string, string> = {
  tug_snapshot: 'Record the workspace as a git tree; its snapshot_id pins later calls.',
  tug_analyze_impact: 'Preview what a refactor (operation + its parameters) would change, without writing anything.',
  tug_rename_symbol: 'Rename the Python, Rust or TypeScript/JavaScript symbol at file:line:column everywhere; verified, committed on a tug/ branch, applied with apply:true.',
  tug_apply_patchset: 'Apply edits (file, old_text, new_text, with line/col or span) as one verified change on a tug/ branch.',
  tug_verify: 'Run syntax checks, tests (mode:"tests") or a type checker on the workspace in a sandbox; writes nothing.',
  tug_undo: 'Undo a change by its undo_token (revert:true makes a revert commit).',
  tug_session_status: "Show tug's session: lock holder, workers, sandboxes, undo points.",
  tug_clean: "Remove tug's sandboxes, caches, workers or undo points.",
  tug_toolchain: 'Show, check or set up the Python interpreter or rust-analyzer tug uses.',
  tug_read_file: 'Read a text file as numbered lines, optionally a line range or another ref.',
  tug_list_files: 'List files under a directory, optionally matching a glob (.gitignore honoured).',
  tug_list_directory: 'List one directory: names, types, sizes.',
  tug_grep_file: 'Search file contents with a regular expression.',
  tug_edit_file: 'Replace old_text with new_text in a file, as a verified change on a tug/ branch (apply:true writes it).',
  tug_write_file: 'Replace a whole file (or create it), as a verified change.',
  tug_create_file: 'Create a new file, as a verified change; fails if it exists.',
  tug_delete_file: 'Delete a file, as a verified change.',
  tug_move_file: 'Move or rename a file (imports are not updated: use tug_move_symbol or tug_rename_symbol).',
  tug_apply_patch: 'Apply a unified diff to one or more files, all or nothing, as a verified change.',
  tug_run_command: "Run a shell command in a throwaway checkout of the snapshot (never the user's files); returns stdout, stderr, exit_code.",
  tug_log: 'The operation log, newest first.',
  tug_show: "One operation log entry by id, or a tug/ branch's recorded operations and staleness.",
  tug_doctor: 'Check what tug needs (git, Python, rust-analyzer, cargo) and report problems.',
  tug_extract_variable: 'Bind the expression in a range to a new variable and use it there.',
  tug_extract_function: 'Move the statements in a range into a new function and call it there.',
  tug_inline: 'Replace the variable or function at a position by its value or body.',
  tug_organize_imports: 'Sort and clean the imports of a file, some files or all files.',
  tug_move_symbol: 'Move a top-level Python function, class or constant to another module, updating imports.',
  tug_change_signature: "Give a Python function a new parameter list (new_params) and rewrite its calls.",
  tug_assists: 'List the rust-analyzer assists (id, label) offered at a Rust position or range.',
  tug_assist: 'Apply one rust-analyzer assist by id at a Rust position or range, verified and committed on a tug/ branch.',
};

/** JSON Schema keywords a model does not need to call well; the server checks them anyway. */
const DROPPED = new Set(['$schema', 'description', 'minLength', 'minimum', 'maximum', 'exclusiveMinimum', 'minItems', 'default', 'additionalProperties']);

function lean(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(lean);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => !DROPPED.has(key))
      // `properties` maps names to schemas; a property named like a keyword (default, description) stays.
      .map(([key, value]) => [key, key === 'properties' ? Object.fromEntries(Object.entries(value as object).map(([name, s]) => [name, lean(s)])) : lean(value)]),
  );
}

/** A parameter's description cut to its first clause, when that is short; long explanations stay in workspace://tool/{name}. */
function briefly(description: string | undefined): string | undefined {
  const clause = description?.split(/(?<=\.)\s|;\s|\s\(/)[0]?.replace(/\.$/, '');
  return clause && clause.length <= BRIEF ? clause : undefined;
}

const BRIEF = 48;

/** The model-facing description and input schema of one tool. */
export function listedTool(operation: Operation): { description: string; inputSchema: Record<string, unknown> } {
  const full = toolParameters(operation) as { properties?: Record<string, unknown>; required?: string[] };
  const required = full.required ?? [];
  const properties = Object.fromEntries(
    Object.entries(full.properties ?? {})
      .filter(([name]) => required.includes(name) || !UNLISTED.has(name))
      .map(([name, schema]) => {
        const note = briefly((schema as { description?: string }).description);
        return [name, { ...(lean(schema) as object), ...(note ? { description: note } : {}) }];
      }),
  );
  return {
    description: SUMMARIES[operation.tool] ?? operation.description,
    inputSchema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
  };
}

/** workspace://tool/{name}: everything tools/list leaves out, for a model that needs a rarely used parameter. */
export function fullTool(operation: Operation): Record<string, unknown> {
  return { name: operation.tool, description: operation.description, inputSchema: toolParameters(operation) };
}
