// Human summaries on a terminal: what happened, where the result is, and the exact commands to merge or undo it.

type Json = Record<string, any>;

export function summarize(command: string, result: Json): string {
  if (result['git'] && result['undo_token']) return summarizeChange(result);
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
  if (command === 'verify') return `verification ${result['verification'].status} (${result['verification'].mode})`;
  if (command === 'trust') return trustSummary(result);
  return JSON.stringify(result, null, 2);
}

/** Files the change touches, in path order, with moves shown as `old -> new`. */
function changedFiles(result: Json): string[] {
  const moves = new Map<string, string>((result['patch']?.['file_moves'] ?? []).map((m: { from: string; to: string }) => [m.from, m.to]));
  const files = new Set<string>([...result['patch']['edits'].map((e: { file: string }) => e.file), ...moves.keys()]);
  return [...files].sort().map((f) => (moves.has(f) ? `${f} -> ${moves.get(f)}` : f));
}

function summarizeChange(result: Json): string {
  const summary = result['summary'];
  const git = result['git'];
  const verification = result['verification'];
  const lines = [
    `${result['operation']}: ${summary.edits_count} edit(s) in ${summary.files_changed} file(s), verification ${verification.status} (${verification.mode})`,
    `  branch  ${git.branch}  ${String(git.commit).slice(0, 12)}`,
    `  files   ${changedFiles(result).join(', ')}`,
  ];
  if (result['applied']) lines.push(`  applied ${result['files_written'].join(', ')}`);
  else if (result['committed']) lines.push(`  committed on the current branch (${result['files_written'].length} file(s) updated)`);
  else lines.push(`  merge   git merge ${git.branch}`);
  lines.push(`  undo    tug undo ${result['undo_token']}`);
  for (const warning of result['warnings'] ?? []) lines.push(`  warning[${warning.code}]: ${warning.message}`);
  lines.push(...unsureLines(result['unsure'] ?? []));
  return lines.join('\n');
}

function trustSummary(result: Json): string {
  const settings: Json[] = result['settings'];
  const state = { trusted: 'trusted', changed: 'NOT trusted (a setting changed since it was trusted; run tug trust again)', untrusted: 'NOT trusted' }[result['trust'] as string];
  const lines = [`${result['repository']}: ${state}`];
  if (settings.length === 0) lines.push('  no settings that need trust (trust still lets the default verification run the tests)');
  for (const s of settings) lines.push(`  ${s['source']} ${s['key']} = ${JSON.stringify(s['value'])}`);
  return lines.join('\n');
}

/** How many occurrences tug could not prove, and the first few of them. */
export function unsureLines(unsure: Json[], shown = 3): string[] {
  if (unsure.length === 0) return [];
  const renamed = unsure.every((u) => u['renamed']);
  const head = renamed ? `  unsure  ${unsure.length} occurrence(s) tug could not prove, renamed too (--include-unsure):` : `  unsure  ${unsure.length} occurrence(s) tug could not prove, left unchanged (--include-unsure renames them):`;
  const lines = [head, ...unsure.slice(0, shown).map((u) => `    ${u['file']}:${u['line']}:${u['col']}  ${u['text']}  (${String(u['reason']).replaceAll('_', ' ')})`)];
  if (unsure.length > shown) lines.push(`    … and ${unsure.length - shown} more (see unsure in --json)`);
  return lines;
}
