// A host's tool for the ToolProvider tests: counts the lines of a file in the workspace (what a host might add).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineOperation, TugError, type ToolProvider } from '../../lib/index.js';

const countLines = defineOperation({
  name: 'count-lines',
  tool: 'host_count_lines',
  description: 'Count the lines of one file in the workspace.',
  input: z.object({ workspace: z.string().optional(), path: z.string().min(1).describe('File relative to the workspace.') }),
  output: z.object({ status: z.literal('ok'), path: z.string(), lines: z.number().int() }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(input) {
    const text = await readFile(path.join(input.workspace ?? '.', input.path), 'utf8').catch(() => {
      throw new TugError('FileNotFound', `no file ${input.path}`, { details: { path: input.path } });
    });
    return { status: 'ok' as const, path: input.path, lines: text.split('\n').length - 1 };
  },
});

export const LINES_PROVIDER: ToolProvider = { name: 'line-count', operations: [countLines] };
