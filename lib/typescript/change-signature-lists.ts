// The text change-signature writes for TypeScript/JavaScript: a definition's parameter list and a call's argument list rebuilt from their own source, with the edits nested inside them (a call in an argument, a renamed parameter) composed in, laid out like the list they replace.
import type * as TS from 'typescript';
import { TugError } from '../core/errors.js';
import type { ResolvedParam } from './change-signature-params.js';

/** A replacement of [start, end) (UTF-16 offsets of one file's text). */
export interface Rewrite {
  start: number;
  end: number;
  text: string;
}

/** One file's rewrites; a later, larger one takes the smaller ones inside it into its own text. */
export class FileRewrites {
  readonly list: Rewrite[] = [];
  constructor(readonly text: string) {}

  /** The source of [start, end) with every rewrite inside it applied (and taken: it is now part of the caller's text). */
  compose(start: number, end: number, extra: readonly Rewrite[] = []): string {
    const inside = [...this.list.filter((r) => r.start >= start && r.end <= end), ...extra].sort((a, b) => a.start - b.start);
    for (const r of inside) if (this.list.includes(r)) this.list.splice(this.list.indexOf(r), 1);
    let out = '';
    let at = start;
    for (const r of inside) {
      if (r.start < at) throw new TugError('InternalError', 'overlapping change-signature edits', { details: { start: r.start, end: r.end } });
      out += this.text.slice(at, r.start) + r.text;
      at = r.end;
    }
    return out + this.text.slice(at, end);
  }

  add(rewrite: Rewrite): void {
    const clash = this.list.find((r) => r.start < rewrite.end && rewrite.start < r.end && !(r.start >= rewrite.start && r.end <= rewrite.end));
    if (clash) throw new TugError('InternalError', 'overlapping change-signature edits', { details: { start: rewrite.start, end: rewrite.end } });
    this.list.push(rewrite);
  }
}

/** Comments between the items of a list would be dropped by a rebuild: refused instead. */
export function assertNoLooseComments(source: TS.SourceFile, items: readonly TS.Node[], open: number, close: number, where: () => { file: string; line: number; col: number }): void {
  let at = open;
  for (const item of [...items.map((i) => ({ start: i.getStart(source), end: i.end })), { start: close, end: close }]) {
    if (/\/\/|\/\*/.test(source.text.slice(at, item.start))) {
      const spot = where();
      throw new TugError('UnsafeRefactor', `${spot.file}:${spot.line}:${spot.col} has a comment between the items of a list that change-signature rebuilds; move it out of the list first`, { details: { reason: 'comment in a list', line: spot.line, col: spot.col }, location: spot });
    }
    at = item.end;
  }
}

/**
 * Where a parenthesized list's inside ends: its `)` when only white space follows the items. A NodeArray ends after
 * its last item (or trailing comma), so the line break and indent before a `)` on its own line lie outside it.
 */
export function insideEnd(text: string, end: number): number {
  let at = end;
  while (at < text.length && /\s/.test(text[at]!)) at++;
  return text[at] === ')' ? at : end;
}

/** The list's new inside text (between the parentheses), multi-line and with a trailing comma when the old one was. */
export function layoutList(text: string, open: number, close: number, items: readonly string[]): string {
  const old = text.slice(open, close);
  if (items.length === 0) return '';
  if (!old.includes('\n')) return items.join(', ');
  const indent = /\n([ \t]*)\S/.exec(old)?.[1] ?? '  ';
  const closing = /\n([ \t]*)$/.exec(old)?.[1];
  const trailing = /,\s*$/.test(old);
  if (closing === undefined) return items.join(', ');
  return `\n${items.map((i, k) => `${indent}${i}${k < items.length - 1 || trailing ? ',' : ''}`).join('\n')}\n${closing}`;
}

/** An argument that runs no code: dropping it or moving it past another changes nothing. */
export function isPlainArgument(ts: typeof TS, node: TS.Expression): boolean {
  if (ts.isIdentifier(node) || ts.isLiteralExpression(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node)) return true;
  if ([ts.SyntaxKind.TrueKeyword, ts.SyntaxKind.FalseKeyword, ts.SyntaxKind.NullKeyword, ts.SyntaxKind.ThisKeyword].includes(node.kind)) return true;
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node) || ts.isTypeOfExpression(node)) return isPlainArgument(ts, node.expression);
  if (ts.isPrefixUnaryExpression(node)) return node.operator !== ts.SyntaxKind.PlusPlusToken && node.operator !== ts.SyntaxKind.MinusMinusToken && isPlainArgument(ts, node.operand);
  if (ts.isPropertyAccessExpression(node)) return isPlainArgument(ts, node.expression);
  if (ts.isArrayLiteralExpression(node)) return node.elements.every((e) => !ts.isSpreadElement(e) && isPlainArgument(ts, e));
  if (ts.isObjectLiteralExpression(node)) return node.properties.every((p) => ts.isShorthandPropertyAssignment(p) || (ts.isPropertyAssignment(p) && !ts.isComputedPropertyName(p.name) && isPlainArgument(ts, p.initializer)));
  return false;
}

/** A new parameter's text, or a kept one's own source with its name, type or default changed as asked. */
export function paramText(ts: typeof TS, source: TS.SourceFile, files: FileRewrites, p: ResolvedParam, own: TS.ParameterDeclaration | null, hasBody: boolean, renameHere: boolean): string {
  const { entry } = p;
  const question = !hasBody && entry.default !== undefined;
  if (!own) return `${p.name}${question ? '?' : ''}${entry.type !== undefined ? `: ${entry.type.trim()}` : ''}${hasBody && entry.default !== undefined ? ` = ${entry.default.trim()}` : ''}`;
  const extra: Rewrite[] = [];
  const name = own.name;
  if (renameHere && ts.isIdentifier(name) && name.text !== p.name) extra.push({ start: name.getStart(source), end: name.end, text: p.name });
  // Insertions at the same offset keep this order: name, `?`, type.
  if (!hasBody && entry.default !== undefined && !own.questionToken && !own.initializer) extra.push({ start: name.end, end: name.end, text: '?' });
  if (entry.type !== undefined) {
    if (own.type) extra.push({ start: own.type.getStart(source), end: own.type.end, text: entry.type.trim() });
    else extra.push({ start: (own.questionToken ?? name).end, end: (own.questionToken ?? name).end, text: `: ${entry.type.trim()}` });
  }
  if (entry.default !== undefined) {
    if (hasBody) {
      if (own.questionToken) extra.push({ start: own.questionToken.getStart(source), end: own.questionToken.end, text: '' });
      if (own.initializer) extra.push({ start: own.initializer.getStart(source), end: own.initializer.end, text: entry.default.trim() });
      else extra.push({ start: own.end, end: own.end, text: ` = ${entry.default.trim()}` });
    }
  }
  return files.compose(own.getStart(source), own.end, extra);
}
