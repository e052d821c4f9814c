// Registry operations as MCP tools: JSON Schemas from the same zod schemas, the spec's hint names, and results equal to the CLI's JSON.
import { z } from 'zod';
import { asTugError } from '../core/errors.js';
import { ErrorBody, ErrorResponse, SCHEMA_VERSION } from '../core/schemas.js';
import type { Operation, OperationContext, ToolAnnotations } from '../ops/operation.js';
import { toolAnnotations } from '../ops/operation.js';
import { operationInput, toolParameters, type ToolOptions } from '../tools.js';
import { agentHint } from './hints.js';
import { CutStore, cutLarge } from './large.js';
import { summarize } from './summary.js';

export interface McpTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: ToolAnnotations;
}

/** A failed call's structuredContent: the CLI's error envelope plus the exit class and a hint for agents. */
export const McpErrorEnvelope = ErrorResponse.extend({
  error: ErrorBody.extend({
    hint: z.string(),
    exit_code: z.number().int().describe('The exit status the CLI would end with: 2 usage, 3 resolution, 4 apply, 5 verification, 10 internal.'),
  }),
});

function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  delete out['$schema'];
  return out;
}

const ERROR_SCHEMA = jsonSchema(McpErrorEnvelope);

/** Success or failure: every structuredContent a call returns validates against this, so clients that check it see tug's errors. */
function outputSchemaOf(operation: Operation): Record<string, unknown> {
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', anyOf: [jsonSchema(operation.output), ERROR_SCHEMA] };
}

export function describeTool(operation: Operation): McpTool {
  return {
    name: operation.tool,
    description: operation.description,
    inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', ...toolParameters(operation) },
    outputSchema: outputSchemaOf(operation),
    annotations: toolAnnotations(operation),
  };
}

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

export function errorEnvelope(error: unknown): Record<string, unknown> {
  const tugError = asTugError(error);
  return McpErrorEnvelope.parse({
    status: 'error',
    schema_version: SCHEMA_VERSION,
    ...(tugError.snapshotId ? { snapshot_id: tugError.snapshotId } : {}),
    error: { ...tugError.toJSON(), hint: agentHint(tugError.code), exit_code: tugError.exitCode },
  }) as Record<string, unknown>;
}

/**
 * Runs one tool call; failures come back as isError results with the error envelope, never as protocol errors. The text
 * content is a short summary; long strings are cut (kept whole in `store`) so the message fits a client's buffer.
 */
export async function callTool(operation: Operation, args: Record<string, unknown>, options: ToolOptions, context: OperationContext, store = new CutStore()): Promise<ToolResult> {
  let result: Record<string, unknown>;
  let isError = false;
  try {
    const input = operationInput(operation, args, options, `${operation.tool} arguments`);
    result = (await operation.execute(input, context)) as Record<string, unknown>;
  } catch (error) {
    result = errorEnvelope(error);
    isError = true;
  }
  const { value, cuts } = cutLarge(result, store);
  return { content: [{ type: 'text', text: summarize(operation.tool, value, cuts) }], structuredContent: value, ...(isError ? { isError } : {}) };
}
