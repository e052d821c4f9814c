// `list_files`: files under a directory, filtered by a glob, as git sees them (.gitignore honoured).
import { z } from 'zod';
import { Oid, SCHEMA_VERSION } from '../../core/schemas.js';
import { CommonFields, defineOperation } from '../operation.js';
import { RefField } from './read-file.js';

export const listFilesInput = z
  .object({
    ...CommonFields,
    path: z.string().optional().describe('Directory to search (relative to the workspace, default: the workspace).'),
    pattern: z.string().optional().describe('Glob to match (`*.py`, `src/**/*.ts`); without a slash it matches file names at any depth.'),
    recursive: z.boolean().optional().describe('Search subdirectories too (default true).'),
    max_results: z.number().int().positive().optional().describe('At most this many files (default 2000); truncated says when more matched.'),
    ref: RefField,
  })
  .strict();

export const ListFilesResponse = z.object({
  status: z.literal('ok'),
  schema_version: z.literal(SCHEMA_VERSION),
  snapshot_id: Oid,
  path: z.string(),
  files: z.array(z.object({ path: z.string(), size: z.number().int() })),
  count: z.number().int(),
  truncated: z.boolean(),
});

export const listFilesOperation = defineOperation({
  name: 'list-files',
  tool: 'tug_list_files',
  summary: 'List files under a directory, optionally matching a glob (.gitignore honoured).',
  lockFree: true,
  agentName: 'list_files',
  description:
    'List files (relative paths and sizes, sorted) under a directory, optionally matching a glob; honours .gitignore (tracked plus untracked, not ignored, files).',
  input: listFilesInput,
  output: ListFilesResponse,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(input) {
    const { withWorkspace } = await import('../workspace/workspace.js');
    const { listFilesTool } = await import('./search.js');
    return withWorkspace(input, { lock: false }, async (ws) => ListFilesResponse.parse({ status: 'ok', schema_version: SCHEMA_VERSION, ...(await listFilesTool(ws, input)) }));
  },
});
