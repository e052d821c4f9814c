// MCP resources: the snapshot's file list, the last change tug made and the operation log, read-only views for agents.
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { asTugError } from '../core/errors.js';
import { lastResult, listSnapshotFiles, operationLog, operationLogEntry, referencesQuery, symbolsQuery } from '../ops/queries.js';

export const RESOURCES = [
  { uri: 'workspace://files', name: 'files', description: 'Every file in the current snapshot (tracked plus untracked, not ignored).', mimeType: 'application/json' },
  { uri: 'workspace://log', name: 'log', description: 'The operation log, newest first: every change tug committed or wrote and every command it ran.', mimeType: 'application/json' },
  { uri: 'workspace://last_patch', name: 'last_patch', description: 'The most recent change tug committed in this session: its JSON result.', mimeType: 'application/json' },
];

export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: 'workspace://symbols{?file}',
    name: 'symbols',
    description: 'Python definitions (functions, classes, methods, variables) with the symbol ids analyze-impact reports; all files, or one with ?file=.',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'workspace://references{?symbol_id}',
    name: 'references',
    description: 'Every occurrence of a symbol (by id from workspace://symbols), ordered by file and offset.',
    mimeType: 'application/json',
  },
  { uriTemplate: 'workspace://log/{id}', name: 'log_entry', description: 'One operation log entry by id or unique prefix.', mimeType: 'application/json' },
];

function reader(uri: string): ((workspace: string) => Promise<unknown>) | null {
  if (uri === 'workspace://files') return listSnapshotFiles;
  if (uri === 'workspace://last_patch') return lastResult;
  if (uri === 'workspace://log') return operationLog;
  const entry = /^workspace:\/\/log\/([0-9a-zA-Z]+)$/.exec(uri);
  if (entry) return (workspace) => operationLogEntry(workspace, entry[1]!);
  const parsed = URL.canParse(uri) ? new URL(uri) : null;
  if (parsed?.protocol === 'workspace:' && parsed.host === 'symbols') {
    return (workspace) => symbolsQuery(workspace, parsed.searchParams.get('file') ?? undefined);
  }
  if (parsed?.protocol === 'workspace:' && parsed.host === 'references' && parsed.searchParams.get('symbol_id')) {
    return (workspace) => referencesQuery(workspace, parsed.searchParams.get('symbol_id')!);
  }
  return null;
}

export async function readResource(uri: string, workspace: string) {
  const read = reader(uri);
  if (!read) throw new McpError(ErrorCode.InvalidParams, `unknown resource ${uri}`);
  try {
    const result = await read(workspace);
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(result, null, 2) }] };
  } catch (error) {
    const tugError = asTugError(error);
    throw new McpError(ErrorCode.InvalidRequest, `${tugError.code}: ${tugError.message}`, tugError.toJSON());
  }
}
