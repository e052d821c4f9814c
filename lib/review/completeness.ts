// A kept subset of a rename, a move or a change-signature is checked for completeness like the whole: the result was
// proven complete with every change, so each rejected change beside kept ones leaves a reference that no longer
// matches what the kept changes did (the import renamed, its call site not). Such a subset needs an explicit "yes".
import type { Decisions, IncompleteSubset, ReviewResult, SubsetGap } from './types.js';

/** Operations whose changes only make sense together: every reference follows the definition. */
const WHOLE = new Set(['rename-symbol', 'move-symbol', 'change-signature']);

const firstLine = (text: string) => text.split('\n').find((l) => l.trim() !== '')?.trim() ?? '';

/** The rename's names from the commit subject (`a -> b`), when it has them. */
function names(result: ReviewResult): { from: string; to: string } | null {
  const match = /(?:^|: )([\w.]+) -> ([\w.]+)/.exec(result.subject);
  return match ? { from: match[1]!.split('.').pop()!, to: match[2]!.split('.').pop()! } : null;
}

/** The rejected changes that break the kept subset, and the kept changes they break against; null when complete. */
export function incompleteSubset(result: ReviewResult, decisions: Decisions): IncompleteSubset | null {
  if (!WHOLE.has(result.operation)) return null;
  const kept: SubsetGap[] = [];
  const rejected: SubsetGap[] = [];
  result.files.forEach((file, f) => {
    file.diff.groups.forEach((group, g) => {
      const gap = { file: file.path, line: group.oldLine, old_text: firstLine(group.oldText), new_text: firstLine(group.newText) };
      (decisions[f]?.[g] === false ? rejected : kept).push(gap);
    });
  });
  if (rejected.length === 0 || kept.length === 0) return null;
  const renamed = names(result);
  const what =
    result.operation === 'rename-symbol' && renamed
      ? `still name${rejected.length === 1 ? 's' : ''} \`${renamed.from}\`, which the kept changes rename to \`${renamed.to}\``
      : `keep${rejected.length === 1 ? 's' : ''} the old form that the kept changes of this ${result.operation} no longer match`;
  const places = rejected.slice(0, 5).map((g) => `${g.file}:${g.line}`).join(', ');
  const more = rejected.length > 5 ? ` and ${rejected.length - 5} more` : '';
  const keptAt = [...new Set(kept.map((g) => `${g.file}:${g.line}`))].slice(0, 5).join(', ');
  return {
    rejected,
    kept,
    message: `incomplete ${result.operation}: ${rejected.length} rejected change(s) (${places}${more}) ${what} (kept: ${keptAt}${kept.length > 5 ? ', …' : ''}); those references break`,
  };
}
