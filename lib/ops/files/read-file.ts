// `read_file`: a file's lines, numbered, from the snapshot (or a ref); binary files refused, long reads cut with `truncated`.
import { z } from 'zod';
import { Oid, SCHEMA_VERSION } from '../../core/schemas.js';
import { CommonFields, defineOperation } from '../operation.js';

export const RefField = z
  .string()
  .optional()
  .describe('Read this branch, tag or commit instead of the working tree (e.g. the onto branch of apply:false edits).');

export const readFileInput = z
  .object({
    ...CommonFields,
    path: z.string().min(1).describe('Path to the file (relative to the workspace).'),
    line_start: z.number().int().positive().optional().describe('Starting line number (1-indexed, default 1).'),
    line_end: z.number().int().positive().optional().describe('Ending line number (1-indexed, inclusive; past the end reads to the end).'),
    line_numbers: z.boolean().optional().describe('Prefix each line with its number and a tab (default true).'),
    ref: RefField,
  })
  .strict();

export const ReadFileResponse = z.object({
  status: z.literal('ok'),
  schema_version: z.literal(SCHEMA_VERSION),
  snapshot_id: Oid,
  path: z.string(),
  content: z.string(),
  line_start: z.number().int(),
  line_end: z.number().int(),
  total_lines: z.number().int(),
  size: z.number().int(),
  truncated: z.boolean(),
  next_line_start: z.number().int().optional(),
  line_ending: z.enum(['lf', 'crlf']),
  bom: z.boolean(),
});

export const readFileOperation = defineOperation({
  name: 'read-file',
  tool: 'tug_read_file',
  summary: 'Read a text file as numbered lines, optionally a line range or another ref.',
  lockFree: true,
  agentName: 'read_file',
  description:
    'Read a text file as numbered lines (optionally a line range). Files .gitignore excludes are not readable; binary files are refused. Output past 100 KB is cut with truncated:true and next_line_start. CRLF is shown as LF (line_ending says which the file uses).',
  input: readFileInput,
  output: ReadFileResponse,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(input) {
    const { withWorkspace } = await import('../workspace/workspace.js');
    const { readFileTool } = await import('./reads.js');
    return withWorkspace(input, { lock: false }, async (ws) => ReadFileResponse.parse({ status: 'ok', schema_version: SCHEMA_VERSION, ...(await readFileTool(ws, input)) }));
  },
});
