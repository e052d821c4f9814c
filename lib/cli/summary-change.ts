// What a person reads after a rename, a patchset or an impact analysis: the symbol, a diff stat, references and warnings
// with file:line:col, the branch, and the exact next command.
import { groupedWarningLines } from './summary-warnings.js';

type Json = Record<string, any>;

/** `file:line:col` — the form terminals and editors turn into links. */
export function where(location: { file: string; line: number; col: number } | undefined): string {
  return location ? `${location.file}:${location.line}:${location.col}` : '';
}

export function warningLines(warnings: Json[] | undefined, indent = '  '): string[] {
  return (warnings ?? []).map((w) => `${indent}warning[${w.code}]${w.location ? ` ${where(w.location)}` : ''}: ${w.message}${w.suggestion ? ` (${w.suggestion})` : ''}`);
}

/** Lines added and removed per file, from the unified diff (moves shown as `old -> new`). */
export function diffStat(result: Json): string[] {
  const stats = new Map<string, { added: number; removed: number }>();
  let current: { added: number; removed: number } | undefined;
  for (const line of String(result['patch']?.['unified_diff'] ?? '').split('\n')) {
    const header = /^diff --git a\/(.+) b\/(.+)$/.exec(line);
    if (header) {
      const name = header[1] === header[2] ? header[1]! : `${header[1]} -> ${header[2]}`;
      current = { added: 0, removed: 0 };
      stats.set(name, current);
    } else if (current && line.startsWith('+') && !line.startsWith('+++ ')) current.added += 1;
    else if (current && line.startsWith('-') && !line.startsWith('--- ')) current.removed += 1;
  }
  if (stats.size === 0) return [];
  const width = Math.max(...[...stats.keys()].map((f) => f.length));
  return [...stats.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([file, s]) => `  ${file.padEnd(width)} | ${String(s.added + s.removed).padStart(3)} ${'+'.repeat(Math.min(s.added, 20))}${'-'.repeat(Math.min(s.removed, 20))}`);
}

/** For a rename, `old -> new` from its edits; for other changes, the commit subject's gist is the operation name. */
function headline(result: Json): string {
  const edits: Json[] = result['patch']?.['edits'] ?? [];
  // A plain place, not one with the text the language adds around it (`a as b`, `{ a: b }`): the names themselves.
  const first = edits.find((e) => /^[\p{L}\p{N}_$]+$/u.test(e['new_text'] ?? '')) ?? edits[0];
  const what = result['operation'] === 'rename-symbol' && first ? ` ${first['old_text']} -> ${first['new_text']}` : '';
  const summary = result['summary'];
  const verification = result['verification'];
  const unsure: Json[] = result['unsure'] ?? [];
  const left = unsure.filter((u) => !u['renamed']).length;
  return `${result['operation']}${what}: ${summary.edits_count} edit(s) in ${summary.files_changed} file(s), verification ${verification.status} (${verification.mode})${left > 0 ? `, ${left} unsure place(s) left unchanged` : ''}`;
}

/** The renamed symbol's old name, which the warnings that concern it mention. */
function oldName(result: Json): string | undefined {
  if (result['symbol']?.name) return result['symbol'].name;
  if (result['operation'] !== 'rename-symbol') return undefined;
  return result['patch']?.['edits']?.[0]?.['old_text'];
}

/**
 * Next to the result: a default verification that stayed at `syntax` because the repository is not trusted did not run
 * the project's tests; say so, with the command that runs them (issue 34 §5).
 */
function untrustedTestsLines(result: Json, input: Json): string[] {
  const skipped = (result['verification']?.['checks'] ?? []).find((c: Json) => c['name'] === 'tests' && c['status'] === 'skipped' && /trusted/.test(String(c['reason'])));
  if (!skipped) return [];
  const rename = typeof input['file'] === 'string' && typeof input['new_name'] === 'string' ? `tug rename ${input['file']}:${input['line']}:${input['column']} ${input['new_name']} --verify tests` : null;
  const command = rename ?? `the same command with --verify tests`;
  return [`  tests   not run: this repository is not trusted, so only syntax was checked; ${rename ? `\`${command}\`` : command} runs them (\`tug trust\` makes that the default)`];
}

export function summarizeChange(result: Json, input: Json = {}): string {
  const git = result['git'];
  const lines = [headline(result), ...untrustedTestsLines(result, input), ...unsureLines(result['unsure'] ?? []), ...diffStat(result), ...groupedWarningLines(result['warnings'], oldName(result))];
  lines.push(`  branch  ${git.branch}  ${String(git.commit).slice(0, 12)}`);
  if (result['applied']) lines.push(`  applied ${result['files_written'].join(', ')}`, ...appliedNext(result));
  else if (result['committed']) lines.push(`  committed on the current branch (${result['files_written'].length} file(s) updated)`);
  else lines.push(...nextStep(result));
  lines.push(`  undo    tug undo ${result['undo_token']}`);
  return lines.join('\n');
}

/** How many occurrences tug could not prove, and each of them (file:line:col and text) up to a screenful. */
export function unsureLines(unsure: Json[], shown = 20): string[] {
  if (unsure.length === 0) return [];
  const renamed = unsure.every((u) => u['renamed']);
  const head = renamed
    ? `  unsure  ${unsure.length} occurrence(s) tug could not prove, renamed too (--include-unsure):`
    : `  unsure  ${unsure.length} occurrence(s) tug could not prove, left unchanged (--include-unsure renames them):`;
  const lines = [head, ...unsure.slice(0, shown).map((u) => `    ${u['file']}:${u['line']}:${u['col']}  ${u['text']}  (${String(u['reason']).replaceAll('_', ' ')})`)];
  if (unsure.length > shown) lines.push(`    … and ${unsure.length - shown} more (see unsure in --json)`);
  return lines;
}

/**
 * After --apply the change is in the user's files: what is left is committing them (or undoing). The branch holds the
 * same change on a snapshot of this tree, so merging it would refuse or duplicate the change: it is not suggested.
 */
function appliedNext(result: Json): string[] {
  const files = (result['files_written'] as string[]).map((f) => (/^[\w./-]+$/.test(f) ? f : `'${f.replaceAll("'", "'\\''")}'`));
  return [`  next    git add -- ${files.join(' ')} && git commit   (review with git diff first; ${result['git'].branch} is only a record, do not merge it)`];
}

/**
 * The command that brings the branch into the user's tree as it is now. On a dirty tree the branch starts from a
 * snapshot commit holding the user's uncommitted and untracked files, so `git merge` would refuse (or drag that
 * snapshot into history); `tug apply` writes just the refactor's files, checked against that snapshot.
 */
function nextStep(result: Json): string[] {
  const git = result['git'];
  if (git.dirty) return [`  next    tug apply ${git.branch}   (your uncommitted changes stay; git merge would refuse on this tree)`];
  return [`  merge   git merge ${git.branch}`];
}

/** analyze-impact of a refactor other than a rename: the patch it would make, shown in full since nothing is written. */
function summarizePreview(result: Json): string {
  const summary = result['summary'];
  const lines = [`${result['operation']}: ${summary.edits_count} edit(s) in ${summary.files_changed} file(s) (nothing written)`, ...diffStat(result)];
  lines.push(...unsureLines(result['unsure'] ?? []));
  lines.push(...groupedWarningLines(result['warnings'], oldName(result)));
  lines.push('', String(result['patch']['unified_diff']).trimEnd(), '');
  lines.push(`  next    tug run ${result['operation']} with the same flags (verifies and commits on a tug/ branch)`);
  return lines.join('\n');
}

export function summarizeImpact(result: Json, input: Json): string {
  if (result['patch'] !== undefined) return summarizePreview(result);
  const symbol = result['symbol'];
  const impact = result['impact'];
  const lines = [
    `${symbol.kind} ${symbol.name} at ${where(symbol.location)}${input['new_name'] ? ` -> ${input['new_name']}` : ''}`,
    `  ${impact.references_count} reference(s) in ${impact.files_affected} file(s), ${impact.edits_estimated} edit(s) estimated`,
  ];
  const byFile = new Map<string, Json[]>();
  for (const reference of result['references'] as Json[]) {
    const file = reference['location'].file as string;
    byFile.set(file, [...(byFile.get(file) ?? []), reference]);
  }
  for (const [file, references] of byFile) {
    lines.push(`  ${file}`);
    for (const reference of references) lines.push(`    ${where(reference['location'])}  ${reference['kind']}`);
  }
  lines.push(...unsureLines(result['unsure'] ?? []));
  lines.push(...groupedWarningLines(result['warnings'], oldName(result)));
  if (typeof input['file'] === 'string' && typeof input['new_name'] === 'string') lines.push(`  next    tug rename ${input['file']}:${input['line']}:${input['column']} ${input['new_name']}`);
  return lines.join('\n');
}
