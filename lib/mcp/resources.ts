// MCP resources: the snapshot's file list and the last change tug made, read-only views for agents.
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { asTugError } from '../core/errors.js';
import { lastResult, listSnapshotFiles } from '../ops/queries.js';

export const RESOURCES = [
  { uri: 'workspace://files', name: 'files', description: 'Every file in the current snapshot (tracked plus untracked, not ignored).', mimeType: 'application/json' },
  { uri: 'workspace://last_patch', name: 'last_patch', description: 'The most recent change tug committed in this session: its JSON result.', mimeType: 'application/json' },
];

export async function readResource(uri: string, workspace: string) {
  const read = uri === 'workspace://files' ? listSnapshotFiles : uri === 'workspace://last_patch' ? lastResult : null;
  if (!read) throw new McpError(ErrorCode.InvalidParams, `unknown resource ${uri}`);
  try {
    const result = await read(workspace);
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(result, null, 2) }] };
  } catch (error) {
    const tugError = asTugError(error);
    throw new McpError(ErrorCode.InvalidRequest, `${tugError.code}: ${tugError.message}`, tugError.toJSON());
  }
}
