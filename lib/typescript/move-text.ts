// The moved declaration as the user wrote it: the language service reprints what it moves (its own indentation, a blank line after a doc comment), so tug puts the original text, with its leading comments, in place of the reprint.
import type * as TS from 'typescript';
import type { TypeScriptModule } from './load.js';
import { declaredNames, type MoveTarget } from './move-target.js';
import { modifiersOf } from './compat.js';

/** Where a statement's text starts when its leading comments (a doc comment, `//` lines) go with it. */
function startWithComments(ts: TypeScriptModule, text: string, statement: TS.Statement, source: TS.SourceFile): number {
  const comments = ts.getLeadingCommentRanges(text, statement.getFullStart()) ?? [];
  // A comment separated from the declaration by a blank line (a file header) is not the declaration's.
  let start = statement.getStart(source);
  for (let i = comments.length - 1; i >= 0; i--) {
    const between = text.slice(comments[i]!.end, start);
    if (/\n[ \t]*\r?\n/.test(between)) break;
    start = comments[i]!.pos;
  }
  return start;
}

/**
 * Replaces the last top-level statement of `after` (the destination's text after the move) that declares the moved
 * names with the statement's original text. `export` is added when the service added it (the old module still uses
 * the name); the original is used only when it parses to the same names, else the service's text stays.
 */
export function keepMovedText(ts: TypeScriptModule, destination: string, after: string, source: TS.SourceFile, target: MoveTarget): string {
  const moved = ts.createSourceFile(destination, after, ts.ScriptTarget.Latest, true);
  const reprint = [...moved.statements].reverse().find((s) => {
    const names = declaredNames(ts, s)?.names ?? [];
    return names.length === target.names.length && names.every((n, i) => n === target.names[i]);
  });
  if (!reprint) return after;
  const original = source.text.slice(startWithComments(ts, source.text, target.statement, source), target.statement.end);
  const exported = modifiersOf(ts, reprint).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  const declStart = target.statement.getStart(source) - startWithComments(ts, source.text, target.statement, source);
  const text = exported && !target.exported ? `${original.slice(0, declStart)}export ${original.slice(declStart)}` : original;
  let before = after.slice(0, reprintStart(ts, after, reprint, moved, original.slice(0, declStart)));
  // Set apart from what the destination had, as declarations are (the service appends it right after the last line).
  if (before.trim() !== '' && !/\n[ \t]*\r?\n$/.test(before) && before.endsWith('\n')) before += before.endsWith('\r\n') ? '\r\n' : '\n';
  return before + text + after.slice(reprint.end);
}

/** Where the reprint starts: its leading comments that are the original's own (the service may set them apart with a blank line). */
function reprintStart(ts: TypeScriptModule, text: string, reprint: TS.Statement, source: TS.SourceFile, originalComments: string): number {
  let start = reprint.getStart(source);
  const comments = ts.getLeadingCommentRanges(text, reprint.getFullStart()) ?? [];
  for (let i = comments.length - 1; i >= 0; i--) {
    if (!originalComments.includes(text.slice(comments[i]!.pos, comments[i]!.end))) break;
    start = comments[i]!.pos;
  }
  return start;
}
