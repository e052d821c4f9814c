// Human summaries on a terminal: what happened, where the result is, and the exact commands to merge or undo it.
import { summarizeChange, summarizeImpact, warningLines } from './summary-change.js';
import { summarizeCheckMerge } from './summary-replay.js';
import { summarizeClean, summarizeDoctor, summarizeSessionStatus, summarizeShow, summarizeToolchain, summarizeTrust } from './summary-status.js';

type Json = Record<string, any>;

export function summarize(command: string, result: Json, input: Json = {}): string {
  if (result['git'] && result['undo_token']) return summarizeChange(result, input);
  if (result['changed'] === false) return [`${result['operation']}: nothing to change (no branch, no commit)`, ...warningLines(result['warnings'])].join('\n');
  if (command === 'snapshot') {
    return `snapshot ${result['snapshot_id']}  ${result['file_count']} files, ${result['total_bytes']} bytes${result['dirty'] ? ', with uncommitted changes' : ', clean'}`;
  }
  if (command === 'undo') {
    const restored: string[] = result['files_restored'];
    const reset = result['branch_reset'] ? `\n  branch ${result['branch_reset'].ref} moved back to ${String(result['branch_reset'].to).slice(0, 12)}` : '';
    return `undone ${result['undo_token']}: ${restored.length} file(s) restored${restored.length ? ` (${restored.join(', ')})` : ''}${reset}`;
  }
  if (command === 'log') {
    const entries: Json[] = result['entries'];
    if (entries.length === 0) return 'no operations logged yet';
    return entries
      .map((e) => `${e['id']}  ${e['time']}  ${e['operation']}${e['branch'] ? `  ${e['branch']}` : ''}${e['files'].length ? `  ${e['files'].join(', ')}` : ''}${e['undo_token'] ? `  ${e['undo_token']}` : ''}`)
      .join('\n');
  }
  if (command === 'verify') return summarizeVerify(result);
  if (command === 'analyze-impact') return summarizeImpact(result, input);
  if (command === 'session status') return summarizeSessionStatus(result);
  if (command === 'toolchain') return summarizeToolchain(result);
  if (command === 'clean') return summarizeClean(result);
  if (command === 'show') return summarizeShow(result);
  if (command === 'check-merge') return summarizeCheckMerge(result);
  if (command === 'doctor') return summarizeDoctor(result);
  if (command === 'trust') return summarizeTrust(result);
  if (command === 'assists') return result['assists'].length === 0 ? `no assists at ${result['location']}` : result['assists'].map((a: Json) => `${a['id']}  ${a['label']}`).join('\n');
  return JSON.stringify(result, null, 2);
}

function summarizeVerify(result: Json): string {
  const verification = result['verification'];
  const lines = [`verification ${verification.status} (${verification.mode})`];
  for (const check of verification.checks ?? []) {
    lines.push(`  ${check.status.padEnd(7)} ${check.name}${check.command ? `  ${check.command.join(' ')}` : ''}`);
    for (const error of check.errors ?? []) lines.push(`    ${[error.file, error.line, error.col].filter((p) => p !== null && p !== undefined).join(':')}: ${error.message}`);
  }
  lines.push(...warningLines(result['warnings']));
  return lines.join('\n');
}
