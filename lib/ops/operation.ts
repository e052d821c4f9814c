// The shape every operation has, so the CLI, the MCP server and library users drive them all the same way.
import { z } from 'zod';
import { TugError } from '../core/errors.js';
import type { CheckProgress } from '../verify/run-check.js';

export type { CheckProgress };

export interface OperationContext {
  /** Progress lines for long steps; front doors route them to stderr or MCP progress notifications. */
  progress?: (message: string) => void;
  /** Aborted when the caller cancels (MCP notifications/cancelled): the operation stops, cleans up and writes nothing. */
  signal?: AbortSignal;
  /** A running check's heartbeat (every few seconds during verification); the MCP server turns it into progress. */
  heartbeat?: (progress: CheckProgress) => void;
}

export interface Operation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** Registry name, also the CLI command path (`apply-patchset`, `session status`). */
  name: string;
  /** MCP and tool-registry name. */
  tool: string;
  /** Name in seed-style agent registries (`read_file`, `edit_file`), when it differs from `tool`. */
  agentName?: string;
  description: string;
  /** One or two sentences for a model choosing a tool (MCP tools/list); `description` says the rest. */
  summary?: string;
  input: I;
  output: O;
  /** openWorld: may reach beyond the repository (runs a program or downloads); default: the input takes a test_command. */
  annotations: { readOnly: boolean; destructive: boolean; idempotent: boolean; openWorld?: boolean };
  /** Never waits for the session lock: no_wait would mean nothing, so tool doors do not offer it. */
  lockFree?: boolean;
  execute(input: z.infer<I>, context: OperationContext): Promise<z.infer<O>>;
  /** How the command line reaches a refactor: `tug run NAME`, `tug analyze-impact NAME` and a shorthand command. */
  cli?: CliForm;
}

/** One command-line flag of a refactor, as yargs takes it. */
export interface CliFlag {
  type: 'string' | 'boolean' | 'number';
  describe: string;
  array?: boolean;
  /** The flag must be given for this operation (checked by the CLI, which names the flag). */
  required?: boolean;
}

/**
 * A refactor's command-line shape. Flags are shared by name across refactors (`--at`, `--name`), so two refactors
 * that use the same flag must give it the same type; a flag of another refactor is refused, never ignored.
 */
export interface CliForm {
  /** Flag name (kebab-case, no dashes) → definition. */
  flags: Record<string, CliFlag>;
  /** The operation's own input fields from the parsed flags (the CLI adds the change flags: verify, apply, …). */
  fields(args: Record<string, unknown>): Record<string, unknown>;
  /** The `tug`/`git tug` command that runs it directly, e.g. `move` for move-symbol. */
  shorthand?: string;
  examples: string[];
}

export function defineOperation<I extends z.ZodType, O extends z.ZodType>(operation: Operation<I, O>): Operation<I, O> {
  return operation;
}

/** The MCP spec's names for an operation's behaviour hints; every front door shows these. */
export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export function toolAnnotations(operation: Operation): ToolAnnotations {
  const shape = (operation.input as unknown as { shape?: Record<string, unknown> }).shape ?? {};
  return {
    title: operation.name,
    readOnlyHint: operation.annotations.readOnly,
    destructiveHint: operation.annotations.destructive,
    idempotentHint: operation.annotations.idempotent,
    // A parameter naming a program to run (a test command, an interpreter) reaches beyond the repository.
    openWorldHint: operation.annotations.openWorld ?? ('test_command' in shape || 'python' in shape),
  };
}

/** Parameters a call passed that `accepted` does not list (undefined values are not passed). */
export interface UnknownParameters {
  accepted: readonly string[];
  unknown: readonly string[];
}

export function unknownParameters(accepted: readonly string[], value: unknown): UnknownParameters {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { accepted, unknown: [] };
  const unknown = Object.keys(value).filter((key) => !accepted.includes(key) && (value as Record<string, unknown>)[key] !== undefined);
  return { accepted, unknown };
}

function shapeKeys(schema: z.ZodType): string[] | null {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : null;
}

/**
 * Validates input; zod's complaints and every unknown parameter (nothing is dropped silently) become one
 * InvalidArgument naming each bad field and what it expected; an unknown one comes with the accepted names, closest first.
 * `strict` overrides which names count as accepted (a front door whose parameters differ from the operation's).
 */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown, what = 'input', strict?: UnknownParameters): z.infer<T> {
  const keys = shapeKeys(schema);
  const extra = strict ?? (keys ? unknownParameters(keys, value) : { accepted: [], unknown: [] });
  const known = extra.unknown.length === 0 ? value : Object.fromEntries(Object.entries(value as object).filter(([key]) => !extra.unknown.includes(key)));
  const result = schema.safeParse(known);
  if (result.success && extra.unknown.length === 0) return result.data;
  const first = extra.unknown[0];
  const ranked = first === undefined ? [] : closestFirst(first, extra.accepted);
  const guess = first === undefined ? undefined : guessFor(first, ranked);
  const issues = [
    ...extra.unknown.map((key) => ({ path: key, message: `unknown parameter ${JSON.stringify(key)}${key === first && guess ? ` (did you mean "${guess}"?)` : ''}` })),
    ...(result.success ? [] : result.error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || what, message: explain(issue) }))),
  ];
  const summary = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  throw new TugError('InvalidArgument', `invalid ${what}: ${summary}${first === undefined ? '' : `. Accepted: ${ranked.join(', ')}`}`, {
    details: {
      argument: issues[0]?.path ?? what,
      reason: summary,
      issues,
      ...(guess ? { did_you_mean: guess } : {}),
      ...(first === undefined ? {} : { accepted: ranked }),
    },
  });
}

function guessFor(word: string, ranked: readonly string[]): string | undefined {
  // Own keys only: `constructor` or `toString` as a parameter name must not find Object's own members.
  const renamed = Object.hasOwn(CLI_NAMES, word) ? CLI_NAMES[word]!.find((name) => ranked.includes(name)) : undefined;
  if (renamed === 'file') return 'file, line and column';
  if (renamed) return renamed;
  return distance(word, ranked[0] ?? '') <= Math.max(2, Math.floor(word.length / 3)) ? ranked[0] : undefined;
}

/** Command-line names agents carry over, and the parameter that means the same. */
const CLI_NAMES: Record<string, string[]> = {
  at: ['file'],
  to: ['new_name', 'destination', 'destination_path'],
  verify: ['mode'],
  workspace: ['workspace_path'],
  // Names other agent tool sets use for the same thing.
  file_path: ['path', 'file'],
  filepath: ['path', 'file'],
  filename: ['path', 'file'],
  undo_token: ['token'],
  name: ['new_name'],
  from: ['source_path', 'file'],
  source: ['source_path'],
  dest: ['destination', 'destination_path'],
  lang: ['language'],
  cmd: ['command'],
};

/** The tool a wrong name most likely meant: one it is a prefix of (tug_rename → tug_rename_symbol), else the closest. */
export function suggestTool(word: string, names: readonly string[]): string | undefined {
  const bare = word.replace(/^tug_/, '');
  const prefixed = names.filter((name) => name.replace(/^tug_/, '').startsWith(bare) && bare.length >= 3);
  if (prefixed.length > 0) return prefixed.sort((a, b) => a.length - b.length)[0];
  const [closest] = closestFirst(word, names);
  return closest !== undefined && distance(word, closest) <= Math.max(2, Math.floor(word.length / 3)) ? closest : undefined;
}

/** Names ordered by edit distance to `word` (ties keep schema order). */
export function closestFirst(word: string, names: readonly string[]): string[] {
  return names
    .map((name, index) => ({ name, index, d: distance(word.toLowerCase(), name.toLowerCase()) }))
    .sort((a, b) => a.d - b.d || a.index - b.index)
    .map((entry) => entry.name);
}

function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** zod's words, made plainer for agents: a missing field says it is required and what it should be (seed 002). */
function explain(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) return `required, expected ${issue.expected}`;
  if (issue.code === 'unrecognized_keys') return `unknown parameter${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
  return issue.message;
}

/** The CLI's `--at FILE:LINE:COL` as the schema's file, line and column (the one place the CLI shape is mapped). */
export function positionFromAt(at: string): { file: string; line: number; column: number } {
  const match = /^(.+):(-?\d+):(-?\d+)$/.exec(at);
  if (!match) throw new TugError('InvalidArgument', `--at ${at} is not FILE:LINE:COL, e.g. src/app.py:12:5`, { details: { argument: 'at', reason: 'expected FILE:LINE:COL' } });
  const line = Number(match[2]);
  const column = Number(match[3]);
  // Files have far fewer lines than this; a bigger number would also not survive the JSON error's location.
  if (!(line >= 1 && column >= 1 && line <= MAX_POSITION && column <= MAX_POSITION)) {
    throw new TugError('InvalidPosition', `${at} is not a position (lines and columns start at 1)`, { details: { path: match[1], line: match[2], col: match[3] } });
  }
  return { file: match[1]!, line, column };
}

/** The CLI's `--range FILE:L1:C1-L2:C2` (end exclusive) as the schema's file, line, column, end_line and end_column. */
export function rangeFromSpec(range: string): { file: string; line: number; column: number; end_line: number; end_column: number } {
  const match = /^(.+):(-?\d+):(-?\d+)-(-?\d+):(-?\d+)$/.exec(range);
  if (!match) {
    throw new TugError('InvalidArgument', `--range ${range} is not FILE:L1:C1-L2:C2, e.g. src/app.py:4:13-4:30 (end exclusive)`, { details: { argument: 'range', reason: 'expected FILE:L1:C1-L2:C2' } });
  }
  const start = positionFromAt(`${match[1]}:${match[2]}:${match[3]}`);
  const end = positionFromAt(`${match[1]}:${match[4]}:${match[5]}`);
  return { ...start, end_line: end.line, end_column: end.column };
}

/** The schema's position of a symbol (1-based; columns count UTF-8 bytes). */
export const PositionFields = {
  file: z.string().min(1).describe('File containing the target, relative to the workspace root.'),
  line: z.number().int().min(1).describe('1-based line of the target.'),
  column: z.number().int().min(1).describe('1-based column of the target (counts UTF-8 bytes).'),
};

/** A span of code: its start as PositionFields, its end exclusive. */
export const RangeFields = {
  ...PositionFields,
  line: z.number().int().min(1).describe('1-based line where the code starts.'),
  column: z.number().int().min(1).describe('1-based column where the code starts (counts UTF-8 bytes).'),
  end_line: z.number().int().min(1).describe('1-based line where the code ends.'),
  end_column: z.number().int().min(1).describe('1-based column just after the code (end exclusive, UTF-8 bytes).'),
};

/** The largest line or column tug accepts. */
export const MAX_POSITION = 2 ** 31 - 1;

export const CommonFields = {
  workspace: z.string().optional().describe('Directory inside the git working tree to operate on (default: the current directory).'),
  session_dir: z.string().optional().describe('Session directory (default: <git-common-dir>/tug).'),
  no_wait: z.boolean().optional().describe('Fail at once with SessionLocked instead of waiting for another tug.'),
  wait_s: z
    .number()
    .min(0)
    .max(86_400)
    .optional()
    .describe("Seconds to wait for another tug's session lock before SessionLocked (default 600 through MCP and agent tools, 30 on the command line)."),
};

export const ChangeFields = {
  snapshot: z.string().optional().describe('Refuse to run unless the workspace is still at this snapshot id (SnapshotMismatch, exit 4).'),
  verify: z
    .enum(['none', 'syntax', 'tests', 'typecheck'])
    .optional()
    .describe('Checks run in the sandbox before anything is committed (default: `verify` in tug.toml or [tool.tug], else syntax).'),
  apply: z.boolean().optional().describe('After verification, write the changed files into the working tree (all or nothing).'),
  commit: z.boolean().optional().describe('After verification, fast-forward the current branch to the result (clean tree only).'),
  keep_sandbox: z.boolean().optional().describe('Keep the sandbox checkout when verification fails, and report its path.'),
  python: z.string().optional().describe('Python interpreter for verification.'),
  test_command: z.array(z.string()).optional().describe('Test command argv; {python} and {workspace} are substituted.'),
  typecheck_command: z.array(z.string()).optional().describe('Type checker argv; {python} and {workspace} are substituted.'),
  timeout: z.number().positive().optional().describe('Time limit per verification step, in seconds (default 300).'),
};

/** Fields every file-editing tool takes: the change road of ChangeFields, with apply on by default and `onto`. */
export const EditFields = {
  ...CommonFields,
  snapshot: ChangeFields.snapshot,
  verify: ChangeFields.verify,
  apply: z.boolean().optional().describe('Write the verified change into the working tree (default true; false leaves it on the branch only).'),
  onto: z
    .string()
    .optional()
    .describe('Add the commit to this tug/ branch (e.g. tug/edit/my-task), computed against its tip, so several calls make one reviewable branch.'),
  keep_sandbox: ChangeFields.keep_sandbox,
  python: ChangeFields.python,
  test_command: ChangeFields.test_command,
  timeout: ChangeFields.timeout,
};
