// `list_directory`: the immediate children of a directory with type, size and modification time.
import { z } from 'zod';
import { Oid, SCHEMA_VERSION } from '../../core/schemas.js';
import { CommonFields, defineOperation } from '../operation.js';
import { RefField } from './read-file.js';

export const listDirectoryInput = z
  .object({
    ...CommonFields,
    path: z.string().optional().describe('Directory path (relative to the workspace, default: the workspace).'),
    ref: RefField,
  })
  .strict();

export const ListDirectoryResponse = z.object({
  status: z.literal('ok'),
  schema_version: z.literal(SCHEMA_VERSION),
  snapshot_id: Oid,
  path: z.string(),
  entries: z.array(
    z.object({
      name: z.string(),
      path: z.string(),
      type: z.enum(['file', 'directory', 'symlink', 'submodule']),
      size: z.number().int().optional(),
      executable: z.boolean().optional(),
      mtime: z.string().nullable().describe('Modification time on disk (ISO 8601); null when reading a ref.'),
    }),
  ),
});

export const listDirectoryOperation = defineOperation({
  name: 'list-directory',
  tool: 'tug_list_directory',
  summary: 'List one directory: names, types, sizes.',
  lockFree: true,
  agentName: 'list_directory',
  description: 'List the contents of one directory: name, type (file, directory, symlink, submodule), size and modification time; .gitignore-excluded entries are left out.',
  input: listDirectoryInput,
  output: ListDirectoryResponse,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(input) {
    const { withWorkspace } = await import('../workspace/workspace.js');
    const { listDirectoryTool } = await import('./reads.js');
    return withWorkspace(input, { lock: false }, async (ws) => ListDirectoryResponse.parse({ status: 'ok', schema_version: SCHEMA_VERSION, ...(await listDirectoryTool(ws, input)) }));
  },
});
