// Strings and comments that mention the renamed name: edited only when asked (--rename-strings/--rename-comments), else reported.
import type { EditRequest } from '../core/patchset.js';
import type { WarningJSON } from '../core/schemas.js';
import { lineStarts, positionOf } from '../core/text.js';
import type { Project } from './project.js';

/**
 * Strings and comments are never edited in safe mode. With --rename-strings, string literals equal to the
 * old name change too; with --rename-comments, whole-word mentions in comments do. Each one is reported.
 */
export function textualEdits(
  project: Project,
  oldName: string,
  newName: string,
  touched: Set<string>,
  bytesOf: Map<string, Uint8Array>,
  options: { renameStrings?: boolean | undefined; renameComments?: boolean | undefined },
): { edits: EditRequest[]; warnings: WarningJSON[] } {
  const edits: EditRequest[] = [];
  const warnings: WarningJSON[] = [];
  const word = new RegExp(`(?<![\\p{L}\\p{N}_])${oldName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}_])`, 'gu');
  for (const info of project.files.values()) {
    const starts = lineStarts(bytesOf.get(info.file)!);
    const located = (offset: number) => ({ file: info.file, ...positionOf(starts, offset) });
    if (options.renameStrings) {
      const inAll = new Set((info.facts.all?.entries ?? []).map((e) => e.span[0]));
      for (const s of info.facts.strings) {
        if (s.value !== oldName || inAll.has(s.span[0])) continue;
        edits.push({ file: info.file, span: { start: s.span[0], end: s.span[1] }, old_text: oldName, new_text: newName });
        warnings.push({ code: 'StringRenamed', message: `the string "${oldName}" was renamed (--rename-strings)`, location: located(s.span[0]) });
      }
    }
    for (const comment of info.facts.comments ?? []) {
      for (const match of comment.text.matchAll(word)) {
        const start = comment.span[0] + Buffer.byteLength(comment.text.slice(0, match.index));
        if (options.renameComments) {
          edits.push({ file: info.file, span: { start, end: start + Buffer.byteLength(oldName) }, old_text: oldName, new_text: newName });
          warnings.push({ code: 'CommentRenamed', message: `a mention of ${oldName} in a comment was renamed (--rename-comments)`, location: located(start) });
        } else if (touched.has(info.file)) {
          warnings.push({ code: 'CommentMention', message: `a comment mentions ${oldName} and was left unchanged`, location: located(start) });
        }
      }
    }
  }
  return { edits, warnings };
}
