// `tug mcp`: the registry served over MCP stdio with the official SDK; stdout carries only protocol messages.
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  McpError,
  ErrorCode,
} from '@modelcontextprotocol/sdk/types.js';
import { keepInMemory } from '../core/memory.js';
import { findOperation, operations } from '../ops/registry.js';
import { readResource, RESOURCE_TEMPLATES, RESOURCES } from './resources.js';
import { LineTransport } from './stdio.js';
import { callTool, describeTool } from './tools.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** A server for `defaultWorkspace`; every call stays inside `root` (the repository it was started in). */
export function createMcpServer(defaultWorkspace: string, root: string = defaultWorkspace): Server {
  const server = new Server(
    { name: 'tug', version: VERSION },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'tug makes verified, deterministic edits: every change is checked against a snapshot, verified in a git worktree and committed on a tug/ branch. Merge the branch or pass apply:true; keep the undo_token.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: operations.map(describeTool) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const operation = findOperation(request.params.name);
    if (!operation || operation.tool !== request.params.name) throw new McpError(ErrorCode.InvalidParams, `unknown tool ${request.params.name}`);
    const token = request.params._meta?.progressToken;
    let step = 0;
    const progress = (message: string) => {
      if (token === undefined) return;
      step += 1;
      void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: step, message } });
    };
    return callTool(operation, request.params.arguments ?? {}, { workspace: defaultWorkspace, root }, { progress, signal: extra.signal });
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: RESOURCES }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => readResource(request.params.uri, defaultWorkspace));
  return server;
}

/** The repository around the start directory; outside a repository, the directory itself. */
async function servedRoot(dir: string): Promise<string> {
  const { discoverRepo } = await import('../git/repo.js');
  return discoverRepo(dir).then((repo) => repo.root, () => dir);
}

export async function serveStdio(defaultWorkspace: string): Promise<void> {
  keepInMemory();
  const server = createMcpServer(defaultWorkspace, await servedRoot(defaultWorkspace));
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(new LineTransport());
  await closed;
}
