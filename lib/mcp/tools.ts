// Registry operations as MCP tools: JSON Schemas from the same zod schemas, the spec's hint names, and results equal to the CLI's JSON.
import { z } from 'zod';
import { asTugError } from '../core/errors.js';
import { ErrorBody, ErrorResponse, SCHEMA_VERSION, VerificationSchema } from '../core/schemas.js';
import type { Operation, OperationContext, ToolAnnotations } from '../ops/operation.js';
import { toolAnnotations } from '../ops/operation.js';
import { operationInput, type ToolOptions } from '../tools.js';
import { listedTool } from './listing.js';
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

/**
 * Success or failure: every structuredContent a call returns validates against this, so clients that check it see tug's
 * errors. The error envelope and the verification result, which many outputs share, are $defs referenced where they occur.
 */
export function outputSchemaOf(operation: Operation): Record<string, unknown> {
  const { $defs, ...output } = jsonSchema(operation.output) as { $defs?: Record<string, unknown> };
  const shared = factor(output, { verification: VERIFICATION_SCHEMA });
  return { type: 'object', anyOf: [shared.schema, { $ref: '#/$defs/error' }], $defs: { ...$defs, ...shared.defs, error: ERROR_SCHEMA } };
}

const VERIFICATION_SCHEMA = JSON.stringify(jsonSchema(VerificationSchema));

/** Replaces every sub-schema equal to one of `known` (compared as JSON) by a $ref; returns the defs it used. */
function factor(schema: unknown, known: Record<string, string>): { schema: unknown; defs: Record<string, unknown> } {
  const defs: Record<string, unknown> = {};
  const walk = (node: unknown): unknown => {
    if (node === null || typeof node !== 'object') return node;
    const text = JSON.stringify(node);
    for (const [name, json] of Object.entries(known)) {
      if (text !== json) continue;
      defs[name] = JSON.parse(json);
      return { $ref: `#/$defs/${name}` };
    }
    if (Array.isArray(node)) return node.map(walk);
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value)]));
  };
  return { schema: walk(schema), defs };
}

/**
 * A schema without its `description` keywords: what a client needs to check results, at a third of the bytes of
 * tools/list. The described schema is in workspace://tool/{name} and docs/AGENT_API.md.
 */
export function withoutDescriptions(schema: unknown): unknown {
  if (schema === null || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map(withoutDescriptions);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'description') continue;
    // Under these keywords the keys are names (a property may be called "description"); the values are schemas.
    const named = (key === 'properties' || key === '$defs' || key === 'patternProperties') && value !== null && typeof value === 'object';
    out[key] = named ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, withoutDescriptions(sub)])) : withoutDescriptions(value);
  }
  return out;
}

export function describeTool(operation: Operation): McpTool {
  return {
    name: operation.tool,
    ...listedTool(operation),
    outputSchema: withoutDescriptions(outputSchemaOf(operation)) as Record<string, unknown>,
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
