// rust-analyzer's inline_call pastes the callee's body where the call was. Two things of the callee do not survive it.
// Its early exits: a `?` or `return` in the body, pasted into the caller, returns from the caller instead (percent-
// encoding in the sweep: `after_percent_sign(..).unwrap_or(byte)`, whose `?`s would have left `next` with None; it
// compiled there only by luck of a closure): refused before anything is written. And its declared
// return type, which may be all that fixed the type of a generic call in the body's tail. scopeguard in the sweep:
// `let guard = guard(v, f);` became `let guard = { let dropfn = f; ScopeGuard::with_strategy(v, dropfn) };`, and only
// `-> ScopeGuard<T, F, Always>` had said which strategy (E0283, type annotations needed). When the call initializes a
// `let`, the binding keeps that information as an annotation, the callee's own generic parameters left to inference:
// `let guard: ScopeGuard<_, _, Always> = { … };`. The annotation is the very type the call had, so it cannot change
// what the code means; it is added only where its names mean at the call what they mean at the callee.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Location } from 'vscode-languageserver-protocol';
import { TugError } from '../core/errors.js';
import type { EditRequest } from '../core/patchset.js';
import { anglesAt, outerGenerics } from './extract-signature.js';
import type { RustAnalyzer } from './lsp-client.js';
import type { DocSymbol } from './move-items.js';
import { lspPositionOfOffset, offsetOfLspPosition } from './positions.js';

const decoder = new TextDecoder();
const IDENT = /[\p{XID_Start}_][\p{XID_Continue}]*/gu;
/** Names that mean the same type in every scope (primitives cannot be shadowed by a type of the crate in practice). */
const PRIMITIVES = new Set(['bool', 'char', 'str', 'u8', 'u16', 'u32', 'u64', 'u128', 'usize', 'i8', 'i16', 'i32', 'i64', 'i128', 'isize', 'f32', 'f64']);
/** A `let` (plain name, no annotation yet) right before the call: `let mut x =`. */
const LET_BEFORE = /\blet\s+(?:mut\s+)?[\p{XID_Start}_][\p{XID_Continue}]*(?=\s*=\s*$)/u;

/** `text` with comments, string and char literals blanked (same length), so that words and `?` in them do not count. */
export function codeOnly(text: string): string {
  return text.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\/|b?r(#*)"[\s\S]*?"\1|b?"(?:\\[\s\S]|[^"\\])*"|b?'(?:\\[^']{1,10}|[^'\\])'/gu, (m) => m.replace(/[^\n]/g, ' '));
}

/** The body (between its braces) of the fn whose name starts at `at` in `text`, or null. */
export function fnBody(text: string, at: number): string | null {
  const code = codeOnly(text);
  let depth = 0;
  let open = -1;
  for (let i = at; i < code.length; i++) {
    const c = code[i]!;
    if (c === ';' && depth === 0 && open < 0) return null;
    if ('(<['.includes(c)) depth++;
    else if (')]'.includes(c) || (c === '>' && code[i - 1] !== '-')) depth--;
    else if (c === '{' && depth === 0 && open < 0) open = i;
    if (open >= 0) break;
  }
  if (open < 0) return null;
  for (let i = open, braces = 0; i < code.length; i++) {
    if (code[i] === '{') braces++;
    else if (code[i] === '}' && --braces === 0) return code.slice(open + 1, i);
  }
  return null;
}

/**
 * Refuses inline_call of a fn whose body exits early (`?`, `return`): pasted at the call, the exit would leave the
 * caller. Bodies of closures and nested fns count too (a few refusals more, never a wrong edit).
 */
export function refuseEarlyExit(calleeText: string, nameAt: number, name: string, where: string): void {
  const body = fnBody(calleeText, nameAt);
  if (body === null) return;
  const exit = /\breturn\b/u.exec(body)?.[0] ?? (/\?(?!\s*Sized\b)/u.test(body) ? '?' : null);
  if (!exit) return;
  throw new TugError('UnsafeRefactor', `\`${name}\` leaves its body early (\`${exit}\`); inlined at ${where}, that would return from the caller instead of giving the call's value`, {
    details: { operation: 'inline', offered: ['inline_call'], reason: 'early return in callee', location: where },
  });
}

/** The declared return type of the fn whose name starts at `at` in `text` ('' when none), and where its header ends. */
export function declaredReturnType(text: string, at: number): string {
  const name = /^[\p{XID_Start}_][\p{XID_Continue}]*/u.exec(text.slice(at));
  if (!name) return '';
  let i = at + name[0].length;
  const generics = anglesAt(text, i);
  if (generics) i = text.indexOf('<', i) + generics.length + 2;
  i = text.indexOf('(', i);
  if (i < 0) return '';
  for (let depth = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) break;
  }
  const arrow = /^\s*->/.exec(text.slice(i + 1));
  if (!arrow) return '';
  const start = i + 1 + arrow[0].length;
  let depth = 0;
  for (let j = start; j < text.length; j++) {
    const c = text[j]!;
    if ('(<['.includes(c)) depth++;
    else if (')]'.includes(c) || (c === '>' && text[j - 1] !== '-')) depth--;
    else if (depth === 0 && (c === '{' || c === ';' || /^where\b/.test(text.slice(j, j + 6)))) return text.slice(start, j).trim();
  }
  return '';
}

/**
 * The annotation to write for a call of a fn with return type `ret` and generic names `generics` (fn and impl):
 * those become `_`, lifetimes `'_`; null when nothing is left to say or the type cannot be written at the call
 * (`impl Trait`, `Self`, a projection `T::Item`, a const generic).
 */
export function annotationFor(ret: string, generics: readonly string[]): string | null {
  if (ret === '' || /\b(impl|Self|as|dyn)\b/u.test(ret)) return null;
  const params = new Set(generics.filter((g) => !g.startsWith("'")));
  let unusable = false;
  const typed = ret.replace(/'?[\p{XID_Start}_][\p{XID_Continue}]*/gu, (word, offset: number) => {
    if (word.startsWith("'")) return word === "'static" ? word : "'_";
    if (!params.has(word)) return word;
    if (/^\s*::/.test(ret.slice(offset + word.length)) || /\[[^\]]*;\s*$/.test(ret.slice(0, offset))) unusable = true;
    return '_';
  });
  if (unusable) return null;
  const names = (typed.match(IDENT) ?? []).filter((w) => w !== '_');
  return names.length === 0 ? null : typed;
}

const contains = (r: DocSymbol['range'], p: { line: number; character: number }) =>
  (r.start.line < p.line || (r.start.line === p.line && r.start.character <= p.character)) && (p.line < r.end.line || (p.line === r.end.line && p.character <= r.end.character));

/** The inline modules (outermost first) around position `p` of a file's symbols. */
function modulesAround(symbols: readonly DocSymbol[], p: { line: number; character: number }): DocSymbol[] {
  const found: DocSymbol[] = [];
  const walk = (list: readonly DocSymbol[]) => {
    for (const s of list) {
      if (!contains(s.range, p)) continue;
      if (s.kind === 2) found.push(s);
      walk(s.children ?? []);
    }
  };
  walk(symbols);
  return found;
}

/**
 * Whether the callee's type names mean the same at the call: the call is in the callee's module, or in a module
 * nested in it whose every level imports its parent's names with `use super::*;` (a crate's `mod tests`).
 */
export async function sameNames(server: RustAnalyzer, uri: string, callee: Location, original: Uint8Array, callAt: number): Promise<boolean> {
  if (fileURLToPath(callee.uri) !== fileURLToPath(uri)) return false;
  const symbols = (await server.request<DocSymbol[] | null>('textDocument/documentSymbol', { textDocument: { uri } }).catch(() => null)) ?? [];
  const outer = modulesAround(symbols, callee.range.start);
  const inner = modulesAround(symbols, lspPositionOfOffset(original, callAt, server.encoding));
  if (outer.some((m, i) => inner[i] !== m)) return false;
  return inner.slice(outer.length).every((m) => {
    const from = offsetOfLspPosition(original, m.range.start, server.encoding);
    const to = offsetOfLspPosition(original, m.range.end, server.encoding);
    return /\buse\s+super\s*::\s*\*\s*;/u.test(decoder.decode(original.subarray(from, to)));
  });
}

/** The callee as its file holds it: the text, and where its name starts (string index). */
export interface CalleeSource {
  location: Location;
  text: string;
  nameAt: number;
  name: string;
}

/** Reads the callee's file (rust-analyzer's analysis tree on disk); null when it cannot be read. */
export function calleeSource(location: Location, encoding: RustAnalyzer['encoding']): CalleeSource | null {
  let text: string;
  try {
    text = readFileSync(fileURLToPath(location.uri), 'utf8');
  } catch {
    return null;
  }
  const bytes = Buffer.from(text);
  const nameAt = bytes.subarray(0, offsetOfLspPosition(bytes, location.range.start, encoding)).toString('utf8').length;
  const name = /^[\p{XID_Start}_][\p{XID_Continue}]*/u.exec(text.slice(nameAt))?.[0] ?? '';
  return { location, text, nameAt, name };
}

/**
 * Adds `: Type` to the `let` that an inlined call initializes, when the callee declares a return type that says more
 * than inference can see in the pasted body. `edits` are inline_call's (one file's) for the call at byte `from` of
 * `original`.
 */
export async function ascribeInlinedCall(server: RustAnalyzer, uri: string, original: Uint8Array, from: number, edits: readonly EditRequest[], callee: CalleeSource): Promise<EditRequest[]> {
  const call = edits.find((e) => e.span && e.span.start <= from && from < e.span.end);
  if (!call?.span) return [...edits];
  const before = decoder.decode(original.subarray(Math.max(0, call.span.start - 400), call.span.start));
  const after = decoder.decode(original.subarray(call.span.end, Math.min(original.length, call.span.end + 40)));
  const binding = LET_BEFORE.exec(before);
  if (!binding || !/^\s*;/.test(after)) return [...edits];
  const { text, nameAt, name } = callee;
  const ret = declaredReturnType(text, nameAt);
  const generics = outerGenerics(text, nameAt + name.length);
  const constants = [...anglesAt(text, nameAt + name.length).matchAll(/\bconst\s+([\p{XID_Start}_][\p{XID_Continue}]*)/gu)].map((m) => m[1]!);
  if (constants.some((c) => new RegExp(`\\b${c}\\b`, 'u').test(ret))) return [...edits];
  const annotation = annotationFor(ret, [...generics.fn, ...generics.impl]);
  if (!annotation) return [...edits];
  const words = (annotation.match(IDENT) ?? []).filter((w) => w !== '_' && !PRIMITIVES.has(w));
  if (words.length > 0 && !(await sameNames(server, uri, callee.location, original, call.span.start))) return [...edits];
  const at = call.span.start - Buffer.byteLength(before.slice(binding.index + binding[0].length));
  const insert: EditRequest = { file: call.file, span: { start: at, end: at }, old_text: '', new_text: `: ${annotation}` };
  return [...edits, insert];
}
