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
import { closestFirst, suggestTool } from '../ops/operation.js';
import { registryWith, type ToolProvider } from '../tool-provider.js';
import { readResource, RESOURCE_TEMPLATES, RESOURCES } from './resources.js';
import { callProgress } from './progress.js';
import { CutStore } from './large.js';
import { LineTransport } from './stdio.js';
import { callTool } from './tools.js';
import { serverToolList, type ToolList } from './tool-list.js';
import { DEFAULT_TTL_MS, POLL_INTERVAL_MS, runsAsTask, TugTaskStore } from './tasks.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export interface McpServerOptions {
  /** Where calls work by default. */
  workspace: string;
  /** Every call stays inside this directory (default: the workspace). `tug mcp` passes the repository it was started in. */
  root?: string;
  /** A host's own tools, listed after tug's and served with the same guards. */
  providers?: readonly ToolProvider[];
}

/** The MCP server over tug's registry plus any providers' tools; connect it to a transport (serveMcpStdio does). */
export function createMcpServer(options: McpServerOptions): Server {
  const { workspace: defaultWorkspace, root = options.workspace } = options;
  const registry = registryWith(options.providers);
  const cut = new CutStore();
  const taskStore = new TugTaskStore();
  const server = new Server(
    { name: 'tug', version: VERSION },
    {
      // Tasks (experimental): only a client that asks for one on a long tool gets a handle; see lib/mcp/tasks.ts.
      capabilities: { tools: {}, resources: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      taskStore,
      instructions:
        'tug makes verified, deterministic edits: every change is checked against a snapshot, verified in a git worktree and committed on a tug/ branch. Merge the branch or pass apply:true; keep the undo_token.',
    },
  );
  // Runs still going when the client goes are stopped like a cancel (checks killed, lock freed, nothing written).
  server.onclose = () => taskStore.stopAll();
  // Made once: the list never changes while the server runs, and building it costs (zod → JSON Schema per tool, ~100 ms
  // of CPU: tug's own list comes from the build, tool-list.ts); its JSON text too (~240 KB: 7–20 ms a time when loaded).
  let listed: ToolList | undefined;
  server.setRequestHandler(ListToolsRequestSchema, async () => (listed ??= serverToolList(registry, (options.providers ?? []).length === 0)));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const operation = registry.find((op) => op.tool === request.params.name);
    if (!operation) {
      const names = registry.map((op) => op.tool);
      const guess = suggestTool(request.params.name, names);
      throw new McpError(
        ErrorCode.InvalidParams,
        `unknown tool ${request.params.name}; ${guess ? `did you mean ${guess}? ` : ''}tools/list names them (closest: ${closestFirst(request.params.name, names).slice(0, 3).join(', ')})`,
        { argument: 'name', ...(guess ? { did_you_mean: guess } : {}) },
      );
    }
    const token = request.params._meta?.progressToken;
    const asTask = request.params.task;
    if (asTask && (!runsAsTask(operation) || !extra.taskStore)) {
      throw new McpError(ErrorCode.InvalidParams, `${operation.tool} does not run as a task (it is quick); call it without task`, { argument: 'task' });
    }
    // The handle goes back at once; the run goes on (progress notifications too) until it ends or tasks/cancel aborts it.
    const task = asTask ? await extra.taskStore!.createTask({ ttl: asTask.ttl ?? DEFAULT_TTL_MS, pollInterval: POLL_INTERVAL_MS }) : undefined;
    const notify = token === undefined ? undefined : (progress: number, message: string) =>
      void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, message } }).catch(() => undefined);
    // A task's progress is also its statusMessage, for a client that polls tasks/get instead of listening.
    const send = task ? (progress: number, message: string) => (notify?.(progress, message), taskStore.note(task.taskId, message)) : notify;
    const progress = callProgress(send);
    const run = (signal: AbortSignal) =>
      callTool(operation, request.params.arguments ?? {}, { workspace: defaultWorkspace, root }, { progress: progress.stage, heartbeat: progress.check, signal }, cut).finally(() => progress.stop());
    if (!task) return run(extra.signal);
    void run(taskStore.track(task.taskId)).then((result) => taskStore.finish(task.taskId, result, extra.sessionId));
    return { task };
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: RESOURCES }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => readResource(request.params.uri, defaultWorkspace, cut, registry));
  return server;
}

/** The repository around the start directory; outside a repository, the directory itself. */
async function servedRoot(dir: string): Promise<string> {
  const { discoverRepo } = await import('../git/repo.js');
  return discoverRepo(dir).then((repo) => repo.root, () => dir);
}

/** Serves over stdin/stdout until the client closes: `tug mcp`, or a host's own binary with its providers. */
export async function serveMcpStdio(options: McpServerOptions): Promise<void> {
  keepInMemory();
  const server = createMcpServer({ ...options, root: options.root ?? (await servedRoot(options.workspace)) });
  const closed = new Promise<void>((resolve) => {
    const stopTasks = server.onclose;
    server.onclose = () => {
      stopTasks?.();
      resolve();
    };
  });
  await server.connect(new LineTransport());
  await closed;
}
