// What a person reads from `tug show BRANCH`, `tug check-merge` and `tug replay`: the recorded operations and what blocks a merge.
type Json = Record<string, any>;

function where(record: Json | null): string {
  const symbol = record?.['symbol'];
  if (symbol) return `${symbol.qualified_name ?? symbol.name} (${symbol.file}:${symbol.line}:${symbol.col})`;
  const input = record?.['input'] ?? {};
  return input.file ? `${input.file}${input.line ? `:${input.line}:${input.column}` : ''}` : '';
}

export function summarizeBranchShow(b: Json): string {
  const status = b['status'];
  const lines = [`${b['name']}  ${String(b['tip']).slice(0, 12)}  base ${String(b['base']).slice(0, 12)}`];
  const uses = status.new_references ? `, ${status.new_references} new use(s) there of what it changed` : '';
  lines.push(status.stale ? `  stale: ${status.base_moved ? `base moved (${status.behind} commit(s) behind ${String(status.against).slice(0, 12)}${uses})` : 'new references'}; \`tug check-merge ${b['name']}\` says whether it merges, \`tug replay ${b['name']}\` redoes it` : status.merged ? '  merged into HEAD' : '  up to date with HEAD');
  for (const [i, step] of (b['steps'] as Json[]).entries()) {
    const record = step['record'];
    lines.push(`  ${i + 1}. ${String(step['commit']).slice(0, 12)}  ${step['subject']}`);
    if (!record) {
      lines.push('     no record (made before tug recorded operations); replays as text');
      continue;
    }
    const input = Object.entries(record.input as Json).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
    lines.push(`     ${record.operation}${where(record) ? ` on ${where(record)}` : ''}  [replays as ${record.replay}]`);
    if (input.length) lines.push(`     input     ${input.join(' ')}`);
    lines.push(`     snapshot  ${record.snapshot}`);
    lines.push(`     verified  ${record.verification.status} (${record.verification.mode})${record.verification.checks.length ? `: ${record.verification.checks.map((c: Json) => `${c.name} ${c.status}`).join(', ')}` : ''}`);
    lines.push(`     tools     ${Object.entries(record.tools as Json).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  }
  return lines.join('\n');
}

export function summarizeCheckMerge(r: Json): string {
  const head = r['merged'] ? `${r['branch']} is already in ${String(r['into']).slice(0, 12)}` : `${r['branch']} into ${String(r['into']).slice(0, 12)}: ${r['clean'] ? 'merges cleanly' : 'would not merge cleanly'}`;
  const lines = [head];
  if (r['conflicts'].length) lines.push(`  git conflicts in ${r['conflicts'].join(', ')}`);
  if (r['semantic'].length) {
    lines.push(`  ${r['semantic'].length} new use(s) the branch's operations would have changed (they merge without a conflict and break):`);
    for (const c of r['semantic'] as Json[]) lines.push(`    ${c.file}:${c.line}:${c.col}  ${c.text}  (${c.operation} of ${c.symbol})`);
  }
  lines.push(`  next: ${r['next']}`);
  return lines.join('\n');
}
