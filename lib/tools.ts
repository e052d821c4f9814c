// tug's operations as plain agent tools (seed 000/001 registries): name, description, JSON Schema, and execute with their success contract.
import { z } from 'zod';
import { asTugError, ERROR_CODES, TugError } from './core/errors.js';
import { findOperation, operations, TOOL_ALIASES } from './ops/registry.js';
import { parseInput, type Operation } from './ops/operation.js';

export interface AgentTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments, generated from the same zod schema the CLI and MCP use. */
  parameters: Record<string, unknown>;
  readOnly: boolean;
  annotations: Operation['annotations'];
  /**
   * Runs the tool. Success: the operation's JSON (no `error` field, `exit_code: 0`).
   * Failure: `{ error, code, exit_code, details }`, never a throw, so a registry's
   * "no error field and exit_code 0" test classifies it correctly. run_command reports
   * the command's own exit_code, and `error` when it is not 0.
   */
  execute(args: unknown): Promise<Record<string, unknown>>;
}

/** Where tools run; arguments may override `workspace`. */
export interface ToolOptions {
  workspace?: string;
  session_dir?: string;
  no_wait?: boolean;
}

/** The seeds' FunctionDeclaration: what an LLM is shown. */
export interface FunctionDeclaration {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

function toolName(operation: Operation): string {
  return operation.agentName ?? operation.tool;
}

function parametersOf(operation: Operation): Record<string, unknown> {
  const schema = z.toJSONSchema(operation.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema['$schema'];
  return schema;
}

/** The success test of seed 000's agentic loop, for callers that want the same verdict. */
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
    hint: ERROR_CODES[tugError.code].hint,
    ...(tugError.details ? { details: tugError.details } : {}),
  };
}

async function run(operation: Operation, args: unknown, options: ToolOptions): Promise<Record<string, unknown>> {
  try {
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
      throw new TugError('InvalidArgument', `${toolName(operation)} arguments must be a JSON object`, { details: { argument: 'arguments', reason: 'not an object' } });
    }
    const defaults = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
    const input = parseInput(operation.input, { ...defaults, ...(args ?? {}) }, `${toolName(operation)} arguments`);
    const result = (await operation.execute(input, {})) as Record<string, unknown>;
    return { ...result, exit_code: typeof result['exit_code'] === 'number' ? result['exit_code'] : 0 };
  } catch (error) {
    return failureOf(error);
  }
}

export function agentTools(options: ToolOptions = {}): AgentTool[] {
  const tools = operations.map((operation) => ({
    name: toolName(operation),
    description: operation.description,
    parameters: parametersOf(operation),
    readOnly: operation.annotations.readOnly,
    annotations: operation.annotations,
    execute: (args: unknown) => run(operation, args, options),
  }));
  for (const [alias, target] of Object.entries(TOOL_ALIASES)) {
    const tool = tools.find((t) => t.name === target)!;
    tools.push({ ...tool, name: alias, description: `${tool.description} (Another name for ${target}.)` });
  }
  return tools;
}

/** Seed 000's `build_function_declarations()`: every tool's name, description and parameter schema. */
export function buildFunctionDeclarations(): FunctionDeclaration[] {
  return agentTools().map(({ name, description, parameters }) => ({ name, description, parameters }));
}

/** Seed 000's `available_tools()`. */
export function availableTools(): string[] {
  return agentTools().map((t) => t.name);
}

/** Seed 000's `execute_tool(name, args)`: never throws; an unknown tool is an `{error}` result too. */
export async function executeTool(name: string, args: unknown, options: ToolOptions = {}): Promise<Record<string, unknown>> {
  const operation = findOperation(name);
  if (!operation) {
    return failureOf(new TugError('InvalidArgument', `unknown tool ${JSON.stringify(name)}; see availableTools() or tug tool --list`, { details: { argument: 'name', reason: 'unknown tool', available: availableTools() } }));
  }
  return run(operation, args, options);
}
