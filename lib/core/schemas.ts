// The JSON contract (seed §26.0.7 plus SPEC's git block) as zod schemas; outputs are parsed through them, which also fixes key order.
import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from './errors.js';
import { SCHEMA_VERSION } from './schema-version.js';

export { SCHEMA_VERSION };

export const Oid = z.string().regex(/^[0-9a-f]{40}$/, 'a 40-hex git object id');

export const Location = z.object({
  file: z.string(),
  line: z.number().int(),
  col: z.number().int(),
  byte_start: z.number().int().optional(),
  byte_end: z.number().int().optional(),
});

export const Span = z.object({ start: z.number().int().nonnegative(), end: z.number().int().nonnegative() });

export const Edit = z.object({
  file: z.string(),
  span: Span,
  old_text: z.string(),
  new_text: z.string(),
  line: z.number().int(),
  col: z.number().int(),
});

export const Warning = z.object({
  code: z.string(),
  message: z.string(),
  location: Location.optional(),
  suggestion: z.string().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type WarningJSON = z.infer<typeof Warning>;

/** A place that may name the renamed symbol but that tug could not prove does. */
export const Unsure = z
  .object({
    file: z.string(),
    line: z.number().int(),
    col: z.number().int(),
    text: z.string().describe('The source around the name, e.g. `task.run`, `getattr(…, "run")` or `write!(f, "{}", self.pre)`.'),
    reason: z
      .enum(['untyped_receiver', 'dynamic_getattr', 'decorator', 'kwargs', 'macro_unexpanded', 'macro_definition', 'cfg_inactive', 'unresolved', 'module_dict', 'string_mention', 'value_use', 'dynamic_module', 'declaration_file'])
      .describe('Python: untyped_receiver: the receiver\'s type is unknown; dynamic_getattr: a getattr/setattr/hasattr/delattr string; decorator: the receiver is a decorated function that may be another object now; kwargs: a call passes keywords through `**mapping`, whose keys may hold the old parameter name (listed, never renamed); unresolved (rename): an attribute of a workspace module that binds no such name (a module __getattr__, an import hook, a proxy module); value_use (change-signature): the function is used as a value there (wrapped, stored, passed) and calls through it follow the old signature; move-symbol: module_dict: the old module\'s __dict__ is read; string_mention: a string (a mock.patch target, a docstring) names the old path; unresolved: the moved name is bound to something else in that file. Rust: macro_unexpanded: in a macro call rust-analyzer could not expand (proc macro, unmatched macro_rules!); macro_definition: in a macro_rules! body; cfg_inactive: in code a #[cfg] switches off; unresolved: rust-analyzer resolves nothing there (change-signature: a call whose argument count does not match); value_use (change-signature): the fn is named but not called there (a fn pointer, a path passed on). TypeScript/JavaScript: string_mention: a string equal to the name; untyped_receiver: a member on a receiver typed any; dynamic_getattr: a string key obj[\'name\'] the service did not resolve, or a computed obj[key] on a type that has the member (never renamed); declaration_file (rename, change-signature, move-symbol): the name in a hand-written declaration file the package.json names (types, typings, exports), which describes the published code and is not tied to the source; move-symbol and module rename: dynamic_module: require(expr) or import(expr) with a computed specifier, which may load the old module; unresolved: the old module loaded at run time by its literal path, or re-exported as a namespace, in a file that names the symbol.'),
    macro: z.string().optional().describe('Rust: the macro the name is in, without `!`.'),
    renamed: z.boolean().describe('True when include_unsure renamed it; false when it was left as it was.'),
  })
  .describe('A place that may name the renamed symbol but that tug could not prove does.');

const errorCodes = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

export const ErrorBody = z.object({
  code: z.enum(errorCodes),
  message: z.string(),
  hint: z.string().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
  location: Location.optional(),
});

export const ErrorResponse = z.object({
  status: z.literal('error'),
  schema_version: z.literal(SCHEMA_VERSION),
  snapshot_id: Oid.optional(),
  error: ErrorBody,
  warnings: z.array(Warning).optional(),
});

export const Check = z.object({
  name: z.string(),
  status: z.enum(['passed', 'failed', 'skipped']),
  command: z.array(z.string()).optional(),
  exit_code: z.number().int().nullable().optional(),
  timed_out: z.boolean().optional(),
  reason: z.string().optional(),
  errors: z.array(z.object({ file: z.string(), line: z.number().int().nullable(), col: z.number().int().nullable().optional(), message: z.string() })).optional(),
  output: z.string().optional(),
  duration_ms: z.number().int().optional(),
});

/** How a project's command was confined: one shape for a verification's checks and for run_command. */
export const IsolationSchema = z.object({
  checkout: z.literal('separate-git-dir'),
  confinement: z.enum(['bwrap', 'unshare', 'none']),
  repository_read_only: z.boolean(),
  network: z.boolean(),
  process_tree: z.enum(['pid-namespace', 'process-walk']),
});

export const VerificationSchema = z.object({
  status: z.enum(['passed', 'failed', 'skipped']),
  mode: z.enum(['none', 'syntax', 'tests', 'typecheck']),
  checks: z.array(Check),
  isolation: IsolationSchema.optional()
    .describe("How the project's commands (tests, test command, type checker, cargo) were confined; absent when only tug's syntax check ran."),
});

export const GitBlock = z.object({
  head: Oid.nullable(),
  snapshot_commit: Oid,
  branch: z.string(),
  commit: Oid,
  dirty: z.boolean(),
});

/** Response of every operation that produces a commit (seed S18 + SPEC's git block). */
export const RunResponse = z.object({
  status: z.literal('ok'),
  schema_version: z.literal(SCHEMA_VERSION),
  snapshot_id: Oid,
  operation: z.string(),
  patch: z.object({
    edits: z.array(Edit),
    file_moves: z.array(z.object({ from: z.string(), to: z.string() })).optional(),
    files_created: z.array(z.string()).optional(),
    files_deleted: z.array(z.string()).optional(),
    unified_diff: z.string(),
  }),
  summary: z.object({
    files_changed: z.number().int(),
    edits_count: z.number().int(),
    bytes_added: z.number().int(),
    bytes_removed: z.number().int(),
  }),
  verification: VerificationSchema,
  warnings: z.array(Warning),
  unsure: z.array(Unsure).optional().describe('Places tug could not prove the change must touch (renames: names of the symbol), in file and position order; omitted when there are none.'),
  git: GitBlock.optional().describe('The commit and branch the change made; absent only when changed is false.'),
  undo_token: z.string().optional().describe('Revert with tug undo; absent only when changed is false.'),
  changed: z.literal(false).optional().describe('false: an idempotent operation (organize-imports) found nothing to do; success with no commit, no branch and no undo_token. Omitted when the operation changed something.'),
  applied: z.boolean().optional(),
  committed: z.boolean().optional(),
  files_written: z.array(z.string()).optional(),
  sandbox_path: z.string().optional(),
});
export type RunResponseJSON = z.infer<typeof RunResponse>;

/** analyze-impact of a refactor other than a rename: the patch it would make, computed but neither verified nor committed. */
export const ChangePreview = z.object({
  status: z.literal('ok'),
  schema_version: z.literal(SCHEMA_VERSION),
  snapshot_id: Oid,
  operation: z.string(),
  patch: RunResponse.shape.patch,
  summary: RunResponse.shape.summary,
  warnings: z.array(Warning),
  unsure: z.array(Unsure).optional().describe('Places tug could not prove the change must touch, in file and position order; left alone, omitted when there are none.'),
});
export type ChangePreviewJSON = z.infer<typeof ChangePreview>;

export const SnapshotResponse = z.object({
  status: z.literal('ok'),
  schema_version: z.literal(SCHEMA_VERSION),
  snapshot_id: Oid,
  file_count: z.number().int(),
  total_bytes: z.number().int(),
  head: Oid.nullable(),
  dirty: z.boolean(),
  changed_files: z.array(z.string()).optional(),
  warnings: z.array(Warning),
});

export const UndoResponse = z.object({
  status: z.literal('ok'),
  schema_version: z.literal(SCHEMA_VERSION),
  snapshot_id: Oid,
  undo_token: z.string(),
  commit: Oid,
  restored_to: Oid,
  files_restored: z.array(z.string()),
  already_undone: z.array(z.string()),
  branch_reset: z.object({ ref: z.string(), from: Oid, to: Oid }).nullable(),
  forced: z.array(z.string()),
  reverted: z.object({ ref: z.string(), from: Oid, to: Oid }).optional().describe('With revert: the revert commit (to) made on ref, on top of from.'),
  warnings: z.array(Warning),
});

export const VerifyResponse = z.object({
  status: z.literal('ok'),
  schema_version: z.literal(SCHEMA_VERSION),
  snapshot_id: Oid,
  verification: VerificationSchema,
  warnings: z.array(Warning),
});

/** One line of the operation log (`<session>/operations.jsonl`): what changed, where it landed, how to undo it. */
export const LogEntry = z.object({
  id: z.string().describe('12 hex digits; a hash of the previous id and this entry (without its time), so the log is a chain.'),
  time: z.string().describe('Wall-clock time of the entry (ISO 8601).'),
  operation: z.string(),
  tool: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  snapshot_id: Oid.nullable(),
  branch: z.string().nullable(),
  commit: Oid.nullable(),
  parent: Oid.nullable(),
  verification: z.object({ status: z.enum(['passed', 'failed', 'skipped']), mode: z.enum(['none', 'syntax', 'tests', 'typecheck']) }).nullable(),
  applied: z.boolean(),
  files: z.array(z.string()),
  undo_token: z.string().nullable(),
  exit_code: z.number().int().nullable().optional(),
});
export type LogEntryJSON = z.infer<typeof LogEntry>;
