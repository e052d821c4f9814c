// tug's operations as plain agent tools (the agent tool registries tug follows): name, description, JSON Schema, and execute with their success contract.
import path from 'node:path';
import { realpathSync } from 'node:fs';
import { z } from 'zod';
import { asTugError, TugError } from './core/errors.js';
import { agentHint } from './mcp/hints.js';
import { TOOL_ALIASES } from './ops/registry.js';
import { findIn, registryWith, type ToolProvider } from './tool-provider.js';
import { parseInput, suggestTool, toolAnnotations, unknownParameters, type Operation, type OperationContext, type ToolAnnotations } from './ops/operation.js';

export interface AgentTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments, generated from the same zod schema the CLI and MCP use. */
  parameters: Record<string, unknown>;
  readOnly: boolean;
  /** The MCP spec's hint names: readOnlyHint, destructiveHint, idempotentHint, openWorldHint. */
  annotations: ToolAnnotations;
  /**
   * Runs the tool. Success: the operation's JSON (no `error` field, `exit_code: 0`).
   * Failure: `{ error, code, exit_code, details }`, never a throw, so a registry's
   * "no error field and exit_code 0" test classifies it correctly. run_command reports
   * the command's own exit_code, and `error` when it is not 0.
   */
  execute(args: unknown): Promise<Record<string, unknown>>;
}

/** Where tools run; the `workspace_path` argument may name another directory (inside `root` when that is set). */
export interface ToolOptions {
  workspace?: string;
  session_dir?: string;
  no_wait?: boolean;
  /** Seconds a call waits for the session lock when it does not say (default TOOL_LOCK_WAIT_S). */
  wait_s?: number;
  /** Confine every call to this directory: a workspace_path outside it is PathOutsideWorkspace. */
  root?: string;
  /** A host's own tools, served beside tug's with the same guards. */
  providers?: readonly ToolProvider[];
}

/** The registries' FunctionDeclaration: what an LLM is shown. */
export interface FunctionDeclaration {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

const WORKSPACE_PATH = z.string().min(1).optional().describe('Directory inside the repository to work on (default: the directory the tool host serves).');

/**
 * What a tool call may pass: the operation's input without the host's settings (`workspace`, `session_dir`), plus
 * `workspace_path`. One name per concept: the MCP server, `tug tool` and agentTools() all take these.
 */
export function toolInput(operation: Operation): z.ZodObject {
  const shape = (operation.input as unknown as z.ZodObject).shape;
  // The host's settings are not call parameters; no_wait is offered only where a call can wait for the lock.
  const omit = new Set(['workspace', 'session_dir', ...(operation.lockFree ? ['no_wait', 'wait_s'] : [])]);
  const rest = Object.fromEntries(Object.entries(shape).filter(([key]) => !omit.has(key)));
  return z.object({ ...rest, ...('workspace' in shape ? { workspace_path: WORKSPACE_PATH } : {}) });
}

export function toolParameters(operation: Operation): Record<string, unknown> {
  const schema = z.toJSONSchema(toolInput(operation), { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema['$schema'];
  return schema;
}

function toolName(operation: Operation): string {
  return operation.agentName ?? operation.tool;
}

/** The success test of the agentic loop tug's registry follows, for callers that want the same verdict. */
export function isToolSuccess(result: Record<string, unknown>): boolean {
  const exit = result['exit_code'];
  return !('error' in result) && !(typeof exit === 'number' && exit !== 0);
}

export function failureOf(error: unknown): Record<string, unknown> {
  const tugError = asTugError(error);
  return {
    error: `${tugError.code}: ${tugError.message}`,
    code: tugError.code,
    exit_code: tugError.exitCode,
    hint: agentHint(tugError.code),
    ...(tugError.details ? { details: tugError.details } : {}),
  };
}

function real(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** The directory a call works in: `workspace_path` against the host's workspace, refused outside `root`. */
export function callWorkspace(requested: unknown, options: ToolOptions): string | undefined {
  const base = options.workspace ?? options.root;
  const wanted = typeof requested === 'string' ? path.resolve(base ?? '.', requested) : base;
  if (options.root !== undefined && wanted !== undefined) {
    const relative = path.relative(real(options.root), real(wanted));
    if (relative.startsWith('..') || path.isAbsolute(relative)) {
      throw new TugError('PathOutsideWorkspace', `workspace_path ${String(requested)} is outside ${options.root}, the repository this server serves`, {
        details: { argument: 'workspace_path', path: wanted, root: options.root },
      });
    }
  }
  return wanted;
}

/**
 * An agent's write queued behind another's verification waits this long for the lock (progress goes out meanwhile), not
 * the command line's 30 s: a test suite often runs longer. TUG_LOCK_TIMEOUT_MS, when set, rules as on the command line.
 */
export const TOOL_LOCK_WAIT_S = 600;

function defaultWait(): number | undefined {
  return process.env['TUG_LOCK_TIMEOUT_MS'] === undefined ? TOOL_LOCK_WAIT_S : undefined;
}

/**
 * Parameters of the design seed's tools that tug's design replaced: a call passing one is told what to do instead,
 * rather than only that the name is unknown.
 */
const REPLACED: Record<string, Record<string, { use?: string; why: string }>> = {
  tug_snapshot: { force_refresh: { why: 'every call takes a fresh snapshot of the working tree; leave force_refresh out' } },
  tug_verify: { files: { why: 'tug_verify checks the whole snapshot (every source file); leave files out, or use a test_command that selects what to run' } },
  tug_change_signature: { update_call_sites: { why: 'every resolved call site is always rewritten (the unresolved ones are listed under unsure); leave update_call_sites out' } },
  tug_apply_patchset: {
    patch_id: { use: 'patchset', why: 'tug keeps no stored patches: pass the edits themselves as patchset: {edits: [...]}, with snapshot to pin the base' },
    edits: { use: 'patchset', why: 'pass the edits inside patchset: {edits: [...]}' },
  },
};

function refuseReplaced(tool: string, args: unknown): void {
  const table = Object.hasOwn(REPLACED, tool) ? REPLACED[tool]! : {};
  const passed = Object.keys((args ?? {}) as object).find((key) => Object.hasOwn(table, key));
  if (passed === undefined) return;
  const { use, why } = table[passed]!;
  throw new TugError('InvalidArgument', `${tool} has no parameter ${passed}: ${why}`, {
    details: { argument: passed, reason: why, ...(use ? { did_you_mean: use } : {}) },
  });
}

/** Longer than any path a file system takes (Linux PATH_MAX): such a value would only fail later, in a spawn (E2BIG). */
const MAX_PATH_BYTES = 4096;

function refuseHugePaths(args: unknown): void {
  for (const [key, value] of Object.entries((args ?? {}) as Record<string, unknown>)) {
    const values = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
    if (!/path|file|destination|source|^cwd$|^ref$/.test(key) || !values.some((v) => Buffer.byteLength(v) > MAX_PATH_BYTES)) continue;
    throw new TugError('InvalidArgument', `${key} is longer than ${MAX_PATH_BYTES} bytes, more than any path can be`, {
      details: { argument: key, reason: `longer than ${MAX_PATH_BYTES} bytes` },
    });
  }
}

/** Validates tool arguments against toolInput and turns them into the operation's input (host settings filled in). */
export function operationInput(operation: Operation, args: unknown, options: ToolOptions, what: string): unknown {
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
    throw new TugError('InvalidArgument', `${what} must be a JSON object`, { details: { argument: 'arguments', reason: 'not an object' } });
  }
  const strict = unknownParameters(Object.keys(toolInput(operation).shape), args ?? {});
  const { workspace_path: requested, ...rest } = (args ?? {}) as Record<string, unknown>;
  if (requested !== undefined && (typeof requested !== 'string' || requested === '')) {
    throw new TugError('InvalidArgument', `invalid ${what}: workspace_path: expected a directory path`, { details: { argument: 'workspace_path', reason: 'not a string' } });
  }
  refuseHugePaths(args);
  refuseReplaced(operation.tool, args);
  const workspace = callWorkspace(requested, options);
  const host = { workspace, session_dir: options.session_dir, no_wait: options.no_wait, wait_s: options.wait_s ?? defaultWait() };
  const shape = (operation.input as unknown as z.ZodObject).shape;
  // A host's tool that does not declare `workspace` (or session_dir) is simply not given it.
  const defaults = Object.fromEntries(Object.entries(host).filter(([k, v]) => v !== undefined && k in shape));
  return parseInput(operation.input, { ...defaults, ...rest }, what, strict);
}

async function run(operation: Operation, args: unknown, options: ToolOptions, context: OperationContext = {}): Promise<Record<string, unknown>> {
  try {
    const input = operationInput(operation, args, options, `${toolName(operation)} arguments`);
    const result = (await operation.execute(input, context)) as Record<string, unknown>;
    return { ...result, exit_code: typeof result['exit_code'] === 'number' ? result['exit_code'] : 0 };
  } catch (error) {
    return failureOf(error);
  }
}

export function agentTools(options: ToolOptions = {}): AgentTool[] {
  const tools = registryWith(options.providers).map((operation) => ({
    name: toolName(operation),
    description: operation.description,
    parameters: toolParameters(operation),
    readOnly: operation.annotations.readOnly,
    annotations: toolAnnotations(operation),
    execute: (args: unknown) => run(operation, args, options),
  }));
  for (const [alias, target] of Object.entries(TOOL_ALIASES)) {
    const tool = tools.find((t) => t.name === target)!;
    tools.push({ ...tool, name: alias, description: `${tool.description} (Another name for ${target}.)` });
  }
  return tools;
}

/** `build_function_declarations()`: every tool's name, description and parameter schema. */
/** With `providers`, a host's own tools are declared after tug's, as agentTools() serves them. */
export function buildFunctionDeclarations(options: ToolOptions = {}): FunctionDeclaration[] {
  return agentTools(options).map(({ name, description, parameters }) => ({ name, description, parameters }));
}

/** `available_tools()`. */
export function availableTools(options: ToolOptions = {}): string[] {
  return agentTools(options).map((t) => t.name);
}

/** `execute_tool(name, args)`: never throws; an unknown tool is an `{error}` result too. */
export async function executeTool(name: string, args: unknown, options: ToolOptions = {}): Promise<Record<string, unknown>> {
  const operation = findIn(registryWith(options.providers), (Object.hasOwn(TOOL_ALIASES, name) ? TOOL_ALIASES[name] : undefined) ?? name);
  if (!operation) {
    const guess = suggestTool(name, availableTools(options));
    return failureOf(
      new TugError('InvalidArgument', `unknown tool ${JSON.stringify(name)}; ${guess ? `did you mean ${guess}? ` : ''}see availableTools() or tug tool --list`, {
        details: { argument: 'name', reason: 'unknown tool', ...(guess ? { did_you_mean: guess } : {}), available: availableTools(options) },
      }),
    );
  }
  return run(operation, args, options);
}
