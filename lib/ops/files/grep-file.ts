// `grep_file`: regex search over the snapshot's text files with line numbers and context; .gitignore honoured.
import { z } from 'zod';
import { Oid, SCHEMA_VERSION } from '../../core/schemas.js';
import { CommonFields, defineOperation } from '../operation.js';
import { RefField } from './read-file.js';

export const grepFileInput = z
  .object({
    ...CommonFields,
    pattern: z.string().min(1).describe('Regular expression in RE2 syntax (no backreferences or lookaround; matching time is linear, so no pattern can hang) matched against each line.'),
    path: z.string().optional().describe('File or directory to search (relative to the workspace, default: the workspace).'),
    include: z.string().optional().describe('Glob to filter files (`*.py`, `src/**/*.ts`).'),
    context: z.number().int().min(0).max(20).optional().describe('Lines of context before and after each match (default 2).'),
    case_insensitive: z.boolean().optional().describe('Ignore case (default false).'),
    max_matches: z.number().int().positive().optional().describe('At most this many matches (default 200); truncated says when there were more.'),
    ref: RefField,
  })
  .strict();

export const GrepFileResponse = z.object({
  status: z.literal('ok'),
  schema_version: z.literal(SCHEMA_VERSION),
  snapshot_id: Oid,
  pattern: z.string(),
  path: z.string(),
  matches: z.array(
    z.object({ path: z.string(), line: z.number().int(), column: z.number().int(), text: z.string(), before: z.array(z.string()), after: z.array(z.string()) }),
  ),
  total_matches: z.number().int(),
  files_searched: z.number().int(),
  files_matched: z.number().int(),
  truncated: z.boolean(),
});

export const grepFileOperation = defineOperation({
  name: 'grep-file',
  tool: 'tug_grep_file',
  summary: 'Search file contents with a regular expression.',
  lockFree: true,
  agentName: 'grep_file',
  description:
    'Search file contents with a regular expression (RE2 syntax, linear time): matches ordered by path and line, each with its column and context lines. Binary files and files over 32 MiB are skipped; .gitignore is honoured; a search over 256 MiB or 20 s is LimitExceeded.',
  input: grepFileInput,
  output: GrepFileResponse,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(input) {
    const { withWorkspace } = await import('../workspace/workspace.js');
    const { grepFileTool } = await import('./search.js');
    return withWorkspace(input, { lock: false }, async (ws) => GrepFileResponse.parse({ status: 'ok', schema_version: SCHEMA_VERSION, ...(await grepFileTool(ws, input)) }));
  },
});
