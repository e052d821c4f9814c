// The text content of a tool result: a few lines a person or model can read (what changed, where, counts, first errors),
// never a second copy of structuredContent, which carries the whole result.
import type { CutValue } from './large.js';

type Json = Record<string, any>;

/** Text shown for file contents and command output is kept to this many characters; structuredContent has the rest. */
const TEXT_LIMIT = 8 * 1024;

export function summarize(tool: string, result: Json, cuts: readonly CutValue[]): string {
  const lines = result['status'] === 'error' ? errorLines(result) : okLines(tool, result);
  for (const cut of cuts) lines.push(`${cut.path} was cut (${cut.chars} characters); the whole of it is at ${cut.resource} (read it in pieces with ?offset=)`);
  return lines.join('\n');
}

function errorLines(result: Json): string[] {
  const error = result['error'] ?? {};
  const lines = [`${error.code}: ${error.message}`];
  if (error.hint) lines.push(`hint: ${error.hint}`);
  if (error.details?.did_you_mean) lines.push(`did you mean: ${error.details.did_you_mean}`);
  const failed = (error.details?.verification?.checks ?? []).filter((c: Json) => c.status === 'failed');
  for (const check of failed.slice(0, 3)) lines.push(...checkLines(check));
  lines.push('structuredContent.error has the details.');
  return lines;
}

function checkLines(check: Json): string[] {
  const errors = (check.errors ?? []).slice(0, 3).map((e: Json) => `  ${e.file}:${e.line ?? '?'}: ${e.message}`);
  const tail = errors.length === 0 && check.output ? [`  ${String(check.output).trim().split('\n').slice(-5).join('\n  ')}`] : [];
  return [`check ${check.name} ${check.status}${check.reason ? ` (${check.reason})` : ''}`, ...errors, ...tail];
}

function okLines(tool: string, result: Json): string[] {
  if (result['git'] && result['summary']) return changeLines(result);
  // An idempotent operation with nothing to do (organize-imports): success, nothing made.
  if (result['changed'] === false) return [`${result['operation']}: nothing to change (no branch, no commit, no undo_token)`];
  if (typeof result['content'] === 'string') {
    const text = result['content'] as string;
    return [`${result['path'] ?? tool}${text.length > TEXT_LIMIT ? ` (first ${TEXT_LIMIT} of ${text.length} characters)` : ''}:`, text.slice(0, TEXT_LIMIT)];
  }
  if (result['verification'] && !result['git']) return [`verification ${result['verification'].status} (${result['verification'].mode})`, ...result['verification'].checks.map((c: Json) => checkLines(c)[0])];
  return genericLines(tool, result);
}

function changeLines(result: Json): string[] {
  const s = result['summary'];
  const v = result['verification'];
  const written = result['committed'] ? 'committed on the current branch' : result['applied'] ? 'written to the working tree' : 'not written to the working tree (merge the branch, or pass apply:true)';
  const lines = [
    `${result['operation']}: ${s.files_changed} file(s), ${s.edits_count} edit(s), +${s.bytes_added}/-${s.bytes_removed} bytes; ${written}`,
    `branch ${result['git'].branch} at ${String(result['git'].commit).slice(0, 12)}; undo_token ${result['undo_token']}`,
    `verification ${v?.status} (${v?.mode})${(v?.checks ?? []).length > 0 ? `: ${v.checks.map((c: Json) => `${c.name} ${c.status}`).join(', ')}` : ''}`,
  ];
  const files = [...new Set<string>((result['patch']?.edits ?? []).map((e: Json) => e.file))];
  if (files.length > 0) lines.push(`files: ${files.slice(0, 10).join(', ')}${files.length > 10 ? `, … (${files.length} in all)` : ''}`);
  const warnings = result['warnings'] ?? [];
  if (warnings.length > 0) lines.push(`${warnings.length} warning(s), first: ${warnings[0].code}: ${warnings[0].message}`);
  if ((result['unsure'] ?? []).length > 0) lines.push(`${result['unsure'].length} place(s) the analysis could not prove (see unsure)`);
  return lines;
}

/** Scalars as they are, arrays and objects as counts: enough to know what came back, the rest is structured. */
function genericLines(tool: string, result: Json): string[] {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(result)) {
    if (key === 'schema_version' || key === 'status') continue;
    if (Array.isArray(value)) parts.push(`${key}: ${value.length} item(s)`);
    else if (value !== null && typeof value === 'object') parts.push(`${key}: {${Object.keys(value).slice(0, 6).join(', ')}}`);
    else if (typeof value === 'string') parts.push(`${key}: ${value.length > 200 ? `${value.slice(0, 200)}… (${value.length} characters)` : value}`);
    else parts.push(`${key}: ${String(value)}`);
  }
  const lines = [`${tool} ok`, ...parts];
  for (const stream of ['stdout', 'stderr'] as const) {
    const text = result[stream];
    if (typeof text === 'string' && text.length > 200) lines.push(`${stream} (last ${Math.min(text.length, TEXT_LIMIT)} characters):`, text.slice(-TEXT_LIMIT));
  }
  return lines;
}
