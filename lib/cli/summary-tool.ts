// What `tug tool NAME` shows a person on a terminal: the text a tool read or ran, a change's summary, or its error;
// programs (a pipe, --json) get the tool's JSON result as before.
import { summarizeChange } from './summary-change.js';

type Json = Record<string, any>;

export function summarizeTool(result: Json): string {
  const lines: string[] = [];
  if (result['git'] && result['undo_token']) lines.push(summarizeChange(result));
  else if (typeof result['content'] === 'string') lines.push(`${result['path']} (lines ${result['line_start']}-${result['line_end']} of ${result['total_lines']})`, result['content'].replace(/\n$/, ''));
  else if (typeof result['stdout'] === 'string') {
    if (result['stdout']) lines.push(result['stdout'].replace(/\n$/, ''));
    if (result['stderr']) lines.push(...result['stderr'].replace(/\n$/, '').split('\n').map((l: string) => `stderr: ${l}`));
    lines.push(`exit code ${result['exit_code']}${result['timed_out'] ? ' (timed out)' : ''}`);
    return lines.join('\n');
  } else if (Array.isArray(result['files'])) lines.push(...result['files'].map((f: Json) => (typeof f === 'string' ? f : `${f['path']}${f['size'] !== undefined ? `  ${f['size']} bytes` : ''}`)));
  else if (Array.isArray(result['matches'])) lines.push(...result['matches'].map((m: Json) => `${m['path'] ?? m['file']}:${m['line']}:${m['column'] ?? m['col'] ?? 1}: ${String(m['text'] ?? m['line_text'] ?? '').trimEnd()}`));
  else if (Array.isArray(result['entries'])) lines.push(...result['entries'].map((e: Json) => (typeof e === 'string' ? e : `${e['name'] ?? e['path']}${e['type'] === 'directory' || e['kind'] === 'dir' ? '/' : ''}`)));
  else return JSON.stringify(result, null, 2);
  if (typeof result['error'] === 'string') lines.push(`error${result['code'] ? `[${result['code']}]` : ''}: ${result['error']}${result['hint'] ? `\n  hint: ${result['hint']}` : ''}`);
  return lines.join('\n');
}

/** A failed tool call (tug error or refused input) on a terminal: the code, message and hint. */
export function summarizeToolError(result: Json): string | null {
  if (typeof result['error'] !== 'string' || result['stdout'] !== undefined) return null;
  const code = typeof result['code'] === 'string' ? result['code'] : '';
  const message = code && result['error'].startsWith(`${code}: `) ? result['error'].slice(code.length + 2) : result['error'];
  return `error${code ? `[${code}]` : ''}: ${message}${result['hint'] ? `\n  hint: ${result['hint']}` : ''}`;
}
