// The items of a Rust move as rust-analyzer's document symbols show them: the item at a position, its kind and
// visibility as written, and the `impl` blocks of the same file that belong to a moved type (they go with it).
import { TugError } from '../core/errors.js';

export interface LspRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

export interface DocSymbol {
  name: string;
  kind: number;
  range: LspRange;
  selectionRange: LspRange;
  children?: DocSymbol[];
}

/** A top-level item with its span (attributes and doc comments included) in string indexes. */
export interface TopItem {
  name: string;
  kind: number;
  start: number;
  end: number;
  /** Where the name is. */
  nameAt: number;
  header: Header;
  symbol: DocSymbol;
}

export interface Header {
  /** Visibility as written ('' when private) and its span (empty at the keyword when private). */
  vis: string;
  visStart: number;
  visEnd: number;
  /** Start of the item's keywords, after attributes, docs and visibility. */
  keyword: string;
  attrs: string;
}

/** Index of an LSP position (UTF-16, as JS strings count) in `text`. */
export function indexOfPosition(starts: readonly number[], text: string, p: { line: number; character: number }): number {
  const line = starts[p.line];
  return line === undefined ? text.length : Math.min(line + p.character, text.length);
}

export function stringLineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return starts;
}

/** Attributes, doc comments and visibility at the start of an item (in the masked text, comments are blank). */
export function headerOf(masked: string, start: number, end: number): Header {
  let i = start;
  let attrs = '';
  for (;;) {
    while (i < end && /\s/.test(masked[i]!)) i++;
    if (masked[i] === '#' && (masked[i + 1] === '[' || (masked[i + 1] === '!' && masked[i + 2] === '['))) {
      const open = masked.indexOf('[', i);
      let depth = 0;
      let j = open;
      for (; j < end; j++) {
        if (masked[j] === '[') depth++;
        else if (masked[j] === ']' && --depth === 0) break;
      }
      attrs += masked.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    break;
  }
  const vis = /^pub(?:\s*\([^)]*\))?/.exec(masked.slice(i, i + 80));
  const visEnd = vis ? i + vis[0].length : i;
  let k = visEnd;
  while (k < end && /\s/.test(masked[k]!)) k++;
  return { vis: vis ? vis[0].replace(/\s+/g, '') : '', visStart: i, visEnd, keyword: masked.slice(k, Math.min(end, k + 60)), attrs };
}

const MOVABLE = /^(?:(?:const|async|unsafe|extern\s*(?:"[^"]*"\s*)?)\s+)*fn\b|^(?:struct|enum|union|type|static|const)\b|^(?:unsafe\s+)?(?:auto\s+)?trait\b/;

/** The top-level items of a file from its document symbols. */
export function topItems(symbols: readonly DocSymbol[], text: string, masked: string): TopItem[] {
  const starts = stringLineStarts(text);
  return symbols.map((symbol) => {
    const start = indexOfPosition(starts, text, symbol.range.start);
    const end = indexOfPosition(starts, text, symbol.range.end);
    return { name: symbol.name, kind: symbol.kind, start, end, nameAt: indexOfPosition(starts, text, symbol.selectionRange.start), header: headerOf(masked, start, end), symbol };
  });
}

/** The movable item at `at`, or a TugError saying why there is none. */
export function itemAt(items: readonly TopItem[], at: number, where: string): TopItem {
  const item = items.find((i) => i.start <= at && at <= i.end);
  if (!item) throw new TugError('InvalidArgument', `no top-level item at ${where}; move-symbol moves a fn, struct, enum, union, trait, const, static or type alias of a module file`, { details: { argument: 'at', reason: 'not a top-level item' } });
  if (/^macro_rules\b/.test(item.header.keyword)) throw new TugError('UnsupportedOperation', `${item.name} is a macro_rules! macro; its scope is textual and tug does not move it`, { details: { operation: 'move-symbol', reason: 'macro' } });
  if (/^impl\b/.test(item.header.keyword)) throw new TugError('InvalidArgument', `${where} is in an impl block; point at the type it belongs to (its impls in the same file move with it)`, { details: { argument: 'at', reason: 'impl block' } });
  if (!MOVABLE.test(item.header.keyword)) throw new TugError('InvalidArgument', `${item.name} at ${where} is not a fn, struct, enum, union, trait, const, static or type alias`, { details: { argument: 'at', reason: 'not a movable item' } });
  return item;
}

/** Whether an item's attributes switch it on or off by configuration. */
export const isCfgGated = (header: Header) => /#\s*\[\s*cfg\s*\(/.test(header.attrs);

/** The type an `impl` block is for (the last path segment, without generics), or null when it is not a plain path. */
export function implSelfType(masked: string, item: TopItem): string | null {
  let text = masked.slice(item.start, item.end);
  const brace = text.indexOf('{');
  text = text.slice(item.header.visEnd - item.start, brace < 0 ? text.length : brace).replace(/^\s*(?:unsafe\s+)?impl\s*/, '');
  if (text.startsWith('<')) text = text.slice(closeAngle(text) + 1);
  const where = /\bwhere\b/.exec(text);
  if (where) text = text.slice(0, where.index);
  let depth = 0;
  let forAt = -1;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '<') depth++;
    else if (text[i] === '>') depth--;
    else if (depth === 0 && forAt < 0 && text.startsWith('for', i) && /[\s>]/.test(text[i - 1] ?? ' ') && /\s/.test(text[i + 3] ?? '')) forAt = i;
  }
  const self = (forAt >= 0 ? text.slice(forAt + 3) : text).trim();
  const base = /^(?:::)?(?:[\p{XID_Continue}]+::)*([\p{XID_Start}_][\p{XID_Continue}]*)\s*(?:<[\s\S]*>)?$/u.exec(self);
  return base ? base[1]! : null;
}

function closeAngle(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '<') depth++;
    else if (text[i] === '>' && text[i - 1] !== '-' && --depth === 0) return i;
  }
  return text.length;
}

/** Whether an impl block implements a trait (`impl X for Y`), whose items have no visibility of their own. */
export function isTraitImpl(masked: string, item: TopItem): boolean {
  const brace = masked.indexOf('{', item.start);
  return /\bfor\b/.test(masked.slice(item.start, brace < 0 ? item.end : brace).replace(/<[^<>]*>/g, ''));
}
