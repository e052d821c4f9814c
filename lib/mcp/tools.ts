// Registry operations as MCP tools: JSON Schemas from the same zod schemas, truthful hints, and results equal to the CLI's JSON.
import { z } from 'zod';
import { asTugError, ERROR_CODES } from '../core/errors.js';
import { ErrorResponse, SCHEMA_VERSION } from '../core/schemas.js';
import type { Operation, OperationContext } from '../ops/operation.js';
import { parseInput } from '../ops/operation.js';

export interface McpTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

const WORKSPACE_PATH = z.string().optional().describe('Workspace directory (default: the directory `tug mcp` was started in).');

function mcpInput(operation: Operation): z.ZodType {
  return (operation.input as unknown as z.ZodObject).extend({ workspace_path: WORKSPACE_PATH });
}

export function describeTool(operation: Operation): McpTool {
  return {
    name: operation.tool,
    description: operation.description,
    inputSchema: z.toJSONSchema(mcpInput(operation), { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
    outputSchema: z.toJSONSchema(operation.output, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>,
    annotations: {
      title: operation.name,
      readOnlyHint: operation.annotations.readOnly,
      destructiveHint: operation.annotations.destructive,
      idempotentHint: operation.annotations.idempotent,
      openWorldHint: false,
    },
  };
}

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

/** Runs one tool call; failures come back as isError results with the CLI's error envelope, never as protocol errors. */
export async function callTool(operation: Operation, args: Record<string, unknown>, defaultWorkspace: string, context: OperationContext): Promise<ToolResult> {
  try {
    const { workspace_path: workspacePath, ...rest } = args;
    const input = parseInput(operation.input, { ...rest, workspace: rest['workspace'] ?? workspacePath ?? defaultWorkspace }, `${operation.tool} arguments`);
    const result = (await operation.execute(input, context)) as Record<string, unknown>;
    return { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }], structuredContent: result };
  } catch (error) {
    const tugError = asTugError(error);
    const envelope = ErrorResponse.parse({
      status: 'error',
      schema_version: SCHEMA_VERSION,
      ...(tugError.snapshotId ? { snapshot_id: tugError.snapshotId } : {}),
      error: { ...tugError.toJSON(), hint: ERROR_CODES[tugError.code].hint },
    }) as Record<string, unknown>;
    return { content: [{ type: 'text', text: JSON.stringify(envelope, null, 2) }], structuredContent: envelope, isError: true };
  }
}
