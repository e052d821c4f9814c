// What a result commit records about the operation that made it (refs/notes/tug), so replay and check-merge can redo or
// reason about it later: the input with the symbol by identity, the tool versions, the start snapshot, the verification.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { toolVersions } from '../../core/tool-versions.js';
import type { Verification } from '../../verify/verify.js';

/** Operations whose input still means something on another tree: replay re-runs them. Everything else is replayed as text. */
export const REPLAYABLE = new Set(['rename-symbol', 'move-symbol', 'change-signature', 'organize-imports', 'extract-variable', 'extract-function', 'inline', 'assist']);

/** Fields of where and how tug ran, not what the operation does: left out of the record (machine paths among them). */
const NOT_RECORDED = new Set([
  'workspace', 'session_dir', 'no_wait', 'wait_s', 'workspace_path', 'snapshot', 'verify', 'apply', 'commit', 'keep_sandbox', 'python',
  'test_command', 'typecheck_command', 'timeout', 'onto', 'rust_analyzer', 'review',
]);

export const RecordedSymbol = z.object({
  name: z.string().describe('The name the symbol had when the operation ran.'),
  id: z.string().optional().describe('Python: the symbol id analyze-impact reports (a hash of module and qualified path).'),
  qualified_name: z.string().optional(),
  kind: z.string().optional(),
  file: z.string(),
  line: z.number().int(),
  col: z.number().int(),
});
export type RecordedSymbolJSON = z.infer<typeof RecordedSymbol>;

export const OperationRecord = z.object({
  format: z.literal('tug-record/1'),
  operation: z.string(),
  replay: z.enum(['operation', 'text']).describe('operation: re-run on the new base; text: a 3-way merge of the commit (patchsets, file edits).'),
  input: z.record(z.string(), z.unknown()).describe('The operation\'s own fields (no paths of the machine, no verification settings).'),
  symbol: RecordedSymbol.nullable(),
  tools: z.record(z.string(), z.string()),
  snapshot: z.string().describe('The tree the operation started from.'),
  base: z.string().describe('The commit the result was made on (its parent).'),
  verification: z.object({ status: z.enum(['passed', 'failed', 'skipped']), mode: z.string(), checks: z.array(z.object({ name: z.string(), status: z.string() })) }),
  plan: z.object({ index: z.number().int(), steps: z.number().int() }).optional().describe('Set on each commit of a plan: its step (0-based) and the step count.'),
});
export type OperationRecordJSON = z.infer<typeof OperationRecord>;

let version: string | undefined;
function tugVersion(): string {
  // The CLI bundle sits two levels up from here (dist/lib/cli-bundle/) and answers import.meta.url with its own place.
  for (const relative of ['../../../../package.json', '../../../package.json']) {
    if (version) break;
    try {
      const pkg = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'tugtool') version = pkg.version;
    } catch {
      // not this one
    }
  }
  return (version ??= 'unknown');
}

export function recordedInput(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(input).sort()) if (!NOT_RECORDED.has(key) && input[key] !== undefined) out[key] = input[key];
  return out;
}

export interface RecordParts {
  operation: string;
  input: Record<string, unknown>;
  symbol?: RecordedSymbolJSON | undefined;
  tools?: Record<string, string> | undefined;
  snapshot: string;
  base: string;
  verification: Verification;
  plan?: { index: number; steps: number } | undefined;
}

export function buildRecord(parts: RecordParts): OperationRecordJSON {
  return OperationRecord.parse({
    format: 'tug-record/1',
    operation: parts.operation,
    replay: REPLAYABLE.has(parts.operation) ? 'operation' : 'text',
    input: recordedInput(parts.input),
    symbol: parts.symbol ?? null,
    tools: { tug: tugVersion(), node: process.versions.node, ...languageTools(parts), ...parts.tools },
    snapshot: parts.snapshot,
    base: parts.base,
    verification: { status: parts.verification.status, mode: parts.verification.mode, checks: parts.verification.checks.map((c) => ({ name: c.name, status: c.status })) },
    ...(parts.plan ? { plan: parts.plan } : {}),
  });
}

/** The language tools that planned the operation, by the language of its target file (what this process has run). */
function languageTools(parts: RecordParts): Record<string, string> {
  const file = parts.symbol?.file ?? (typeof parts.input['file'] === 'string' ? parts.input['file'] : '');
  if (/\.pyi?$/.test(file)) return toolVersions(['python', 'libcst']);
  if (file.endsWith('.rs')) return toolVersions(['rust-analyzer']);
  return {};
}

/** The note's text: pretty JSON, so `git log --notes=tug` reads well. */
export function recordText(record: OperationRecordJSON): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}

/** A note that is not a record of this format (written by hand, or by a later tug) reads as none. */
export function parseRecord(text: string | undefined): OperationRecordJSON | null {
  if (!text) return null;
  try {
    const parsed = OperationRecord.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
