// MCP resources: the snapshot's file list, the last change tug made and the operation log, read-only views for agents.
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { asTugError, ERROR_CODES, type ErrorCode as TugCode } from '../core/errors.js';
import { closestFirst, type Operation } from '../ops/operation.js';
import { fullTool } from './listing.js';
import { outputSchemaOf } from './tools.js';
import { lastResult, listSnapshotFiles, operationLog, operationLogEntry, referencesQuery, symbolsQuery } from '../ops/workspace/queries.js';
import { agentHint } from './hints.js';
import { readCut, type CutStore } from './large.js';

/** The MCP spec's code for a resource that does not exist. */
export const RESOURCE_NOT_FOUND = -32002;

export const RESOURCES = [
  { uri: 'workspace://files', name: 'files', description: 'Every file in the current snapshot (tracked plus untracked, not ignored).', mimeType: 'application/json' },
  { uri: 'workspace://log', name: 'log', description: 'The operation log, newest first: every change tug committed or wrote and every command it ran.', mimeType: 'application/json' },
  { uri: 'workspace://last_patch', name: 'last_patch', description: 'The most recent change tug committed in this session: its JSON result.', mimeType: 'application/json' },
];

export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: 'workspace://symbols{?file,kind,name}',
    name: 'symbols',
    description:
      'Python definitions (functions, classes, methods, variables) with the symbol ids analyze-impact reports; all files, or one with ?file=; ?kind= keeps one kind (function, class, method, …), ?name= one exact name.',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'workspace://references{?symbol_id}',
    name: 'references',
    description: 'Every occurrence of a symbol (by id from workspace://symbols), ordered by file and offset.',
    mimeType: 'application/json',
  },
  { uriTemplate: 'workspace://log/{id}', name: 'log_entry', description: 'One operation log entry by id or unique prefix.', mimeType: 'application/json' },
  {
    uriTemplate: 'workspace://tool/{name}',
    name: 'tool',
    description: 'One tool in full: its whole description and input schema with every parameter described, including those tools/list leaves out.',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'workspace://cut/{id}{?offset,length}',
    name: 'cut',
    description: 'The whole of a value a tool result cut (over 256 KB), in pieces of up to 256 KB: total_chars, offset, next_offset (null at the end), text.',
    mimeType: 'application/json',
  },
];

type Reader = (workspace: string) => Promise<unknown>;

/** A value cut out of a tool result (see large.ts); gone once the server restarts or many larger ones followed. */
function cutReader(uri: string, cut: CutStore): Reader | null {
  const parsed = URL.canParse(uri) ? new URL(uri) : null;
  if (!parsed) return null;
  query(parsed, ['offset', 'length']);
  const piece = readCut(cut, parsed);
  return piece ? async () => piece : null;
}

/** Query parameters a resource takes; any other is an error naming it, as with tool parameters. */
function query(parsed: URL, accepted: readonly string[]): Record<string, string | undefined> {
  for (const key of parsed.searchParams.keys()) {
    if (!accepted.includes(key)) {
      throw new McpError(ErrorCode.InvalidParams, `unknown query parameter "${key}" for workspace://${parsed.host}; accepted: ${closestFirst(key, accepted).join(', ')}`, { argument: key, accepted });
    }
  }
  return Object.fromEntries(accepted.map((key) => [key, parsed.searchParams.get(key) ?? undefined]));
}

async function symbols(workspace: string, q: Record<string, string | undefined>): Promise<unknown> {
  const result = (await symbolsQuery(workspace, q['file'])) as { symbols: Array<{ kind: string; name: string }> };
  return { ...result, symbols: result.symbols.filter((s) => (q['kind'] === undefined || s.kind === q['kind']) && (q['name'] === undefined || s.name === q['name'])) };
}

function reader(uri: string): Reader | null {
  if (uri === 'workspace://files') return listSnapshotFiles;
  if (uri === 'workspace://last_patch') return lastResult;
  if (uri === 'workspace://log') return operationLog;
  const entry = /^workspace:\/\/log\/([0-9a-zA-Z]+)$/.exec(uri);
  if (entry) return (workspace) => operationLogEntry(workspace, entry[1]!);
  const parsed = URL.canParse(uri) ? new URL(uri) : null;
  if (parsed?.protocol !== 'workspace:' || (parsed.pathname !== '' && parsed.pathname !== '/')) return null;
  if (parsed.host === 'symbols') {
    const q = query(parsed, ['file', 'kind', 'name']);
    return (workspace) => symbols(workspace, q);
  }
  if (parsed.host === 'references') {
    const q = query(parsed, ['symbol_id']);
    if (!q['symbol_id']) throw new McpError(ErrorCode.InvalidParams, 'workspace://references needs ?symbol_id= (an id from workspace://symbols)', { argument: 'symbol_id' });
    return (workspace) => referencesQuery(workspace, q['symbol_id']!);
  }
  return null;
}

/** Not found (-32002) for what is not there, invalid params for bad input, internal error otherwise; data carries tug's error. */
function protocolCode(code: TugCode): number {
  const exit = ERROR_CODES[code].exit;
  if (exit === 3) return RESOURCE_NOT_FOUND;
  if (exit === 2) return ErrorCode.InvalidParams;
  return ErrorCode.InternalError;
}

export async function readResource(uri: string, workspace: string, cut?: CutStore, registry: readonly Operation[] = []) {
  const tool = /^workspace:\/\/tool\/([a-z_]+)$/.exec(uri);
  const operation = tool ? registry.find((op) => op.tool === tool[1]) : undefined;
  const read = operation ? async () => ({ ...fullTool(operation), outputSchema: outputSchemaOf(operation) }) : cut && uri.startsWith('workspace://cut/') ? cutReader(uri, cut) : reader(uri);
  if (!read) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
  try {
    const result = await read(workspace);
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(result, null, 2) }] };
  } catch (error) {
    const tugError = asTugError(error);
    throw new McpError(protocolCode(tugError.code), `${tugError.code}: ${tugError.message}`, { uri, ...tugError.toJSON(), hint: agentHint(tugError.code), exit_code: tugError.exitCode });
  }
}
