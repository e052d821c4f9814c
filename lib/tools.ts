// tug's operations as plain agent tools (seed 000/001 registries): name, description, JSON Schema, and execute with their success contract.
import { z } from 'zod';
import { asTugError, ERROR_CODES } from './core/errors.js';
import { operations } from './ops/registry.js';
import { parseInput } from './ops/operation.js';

export interface AgentTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments, generated from the same zod schema the CLI and MCP use. */
  parameters: Record<string, unknown>;
  readOnly: boolean;
  /**
   * Runs the tool. Success: the operation's JSON (no `error` field, `exit_code: 0`).
   * Failure: `{ error, code, exit_code, details }`, never a throw, so a registry's
   * "no error field and exit_code 0" test classifies it correctly.
   */
  execute(args: unknown): Promise<Record<string, unknown>>;
}

export function agentTools(options: { workspace?: string } = {}): AgentTool[] {
  return operations.map((operation) => ({
    name: operation.tool,
    description: operation.description,
    parameters: z.toJSONSchema(operation.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
    readOnly: operation.annotations.readOnly,
    async execute(args: unknown) {
      try {
        const raw = { workspace: options.workspace, ...(typeof args === 'object' && args !== null ? args : {}) };
        const input = parseInput(operation.input, raw, `${operation.tool} arguments`);
        const result = (await operation.execute(input, {})) as Record<string, unknown>;
        return { ...result, exit_code: 0 };
      } catch (error) {
        const tugError = asTugError(error);
        return {
          error: `${tugError.code}: ${tugError.message}`,
          code: tugError.code,
          exit_code: tugError.exitCode,
          hint: ERROR_CODES[tugError.code].hint,
          ...(tugError.details ? { details: tugError.details } : {}),
        };
      }
    },
  }));
}
