// rust-analyzer's inline_call binds an argument it cannot paste as is to a `let` named after the parameter, without
// the parameter's type: `u128_mulhi(n, 156927543384667019095894735580191660403)` (itoa in the sweep) became
// `let y = 156927543384667019095894735580191660403;`, which rustc then types as i32 (overflowing_literals, E0080-like
// deny). The call had fixed the literal's type to the parameter's; the `let` gets that type back as an annotation.
// A `let` with a type is a coercion site like an argument, so `let y: u128 = <arg>;` means what passing it meant.
import type { EditRequest } from '../core/patchset.js';
import { anglesAt, outerGenerics } from './extract-signature.js';
import { annotationFor, codeOnly, fnBody, type CalleeSource } from './inline-call.js';

const IDENT = /^[\p{XID_Start}_][\p{XID_Continue}]*/u;
const PRIMITIVES = new Set(['bool', 'char', 'u8', 'u16', 'u32', 'u64', 'u128', 'usize', 'i8', 'i16', 'i32', 'i64', 'i128', 'isize', 'f32', 'f64']);
/** A numeric literal without a suffix (its type comes from the context), then something that is not part of a name. */
const UNTYPED_NUMBER = /^(?:0x[0-9a-fA-F_]+|0o[0-7_]+|0b[01_]+|[0-9][0-9_]*(?:\.[0-9][0-9_]*)?(?:[eE][+-]?[0-9_]+)?)(?![\p{XID_Continue}.])/u;

export interface Param {
  name: string;
  type: string;
}

/** The named parameters of the fn whose name starts at `nameAt` (`self` and patterns other than a name left out). */
export function fnParams(text: string, nameAt: number): Param[] {
  const name = IDENT.exec(text.slice(nameAt));
  if (!name) return [];
  let i = nameAt + name[0].length;
  const generics = anglesAt(text, i);
  if (generics) i = text.indexOf('<', i) + generics.length + 2;
  const code = codeOnly(text);
  const open = code.indexOf('(', i);
  if (open < 0) return [];
  const parts: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let j = open; j < code.length; j++) {
    const c = code[j]!;
    if ('(<['.includes(c)) depth++;
    else if (')]'.includes(c) || (c === '>' && code[j - 1] !== '-')) depth--;
    if ((c === ',' && depth === 1) || depth === 0) {
      parts.push(text.slice(start, j));
      start = j + 1;
    }
    if (depth === 0) break;
  }
  const params: Param[] = [];
  for (const part of parts) {
    const m = /^\s*(?:#\[[^\]]*\]\s*)*(?:mut\s+)?([\p{XID_Start}_][\p{XID_Continue}]*)\s*:(?!:)([\s\S]+)$/u.exec(part);
    if (m && m[1] !== 'self') params.push({ name: m[1]!, type: m[2]!.trim() });
  }
  return params;
}

/** Whether `expr` is made of unsuffixed numeric literals and operators only: its type is whatever the context says. */
export function untypedLiteral(expr: string): boolean {
  let rest = expr.trim();
  let numbers = 0;
  while (rest !== '') {
    const number = UNTYPED_NUMBER.exec(rest);
    if (number) {
      numbers++;
      rest = rest.slice(number[0].length).trimStart();
      continue;
    }
    const operator = /^(?:<<|>>|[-+*/%&|^!()])/.exec(rest);
    if (!operator) return false;
    rest = rest.slice(operator[0].length).trimStart();
  }
  return numbers > 0;
}

/**
 * The inlined call's edit with `: Type` on each leading `let <param> = <untyped literal>;` of the pasted block, where
 * the type can be written at the call: a primitive, or (when `sameNames` says the callee's names mean the same there)
 * any type without the callee's generic parameters.
 */
export async function typeLiteralArguments(edits: readonly EditRequest[], from: number, callee: CalleeSource, sameNames: () => Promise<boolean>): Promise<EditRequest[]> {
  const index = edits.findIndex((e) => e.span && e.span.start <= from && from < e.span.end);
  const call = edits[index];
  if (!call) return [...edits];
  const params = fnParams(callee.text, callee.nameAt);
  if (params.length === 0) return [...edits];
  const generics = outerGenerics(callee.text, callee.nameAt + callee.name.length);
  const text = call.new_text;
  const open = text.indexOf('{');
  if (open < 0) return [...edits];
  let out = text.slice(0, open + 1);
  let at = open + 1;
  let next = 0;
  // rust-analyzer writes the parameters' lets first, in the parameters' order: the first other statement ends them.
  for (;;) {
    const stmt = /^(\s*let\s+(?:mut\s+)?)([\p{XID_Start}_][\p{XID_Continue}]*)(\s*)=([^;{}]*);/u.exec(text.slice(at));
    if (!stmt) break;
    const position = params.findIndex((p, i) => i >= next && p.name === stmt[2]);
    if (position < 0) break;
    next = position + 1;
    const param = params[position]!;
    const type = annotationFor(param.type, [...generics.fn, ...generics.impl]);
    const writable = type !== null && !/\b_\b/u.test(type) && untypedLiteral(stmt[4]!) && (PRIMITIVES.has(type) || (await sameNames()));
    out += writable ? `${stmt[1]}${stmt[2]}: ${type}${stmt[3] || ' '}=${stmt[4]};` : stmt[0];
    at += stmt[0].length;
  }
  out += text.slice(at);
  if (out === text) return [...edits];
  const copy = [...edits];
  copy[index] = { ...call, new_text: out };
  return copy;
}

/**
 * Parentheses around a pasted body that is an operator expression where the call was an operand: rust-analyzer 1.85
 * pasted `high(1 << 50) + high(5_000_000_000_000)` (`fn high(x: u64) -> u64 { x >> 40 }`) as
 * `high(1 << 50) + 5_000_000_000_000 >> 40`, which shifts the sum. A call is a primary expression, so the
 * parenthesized body always reads as the call did.
 */
export function parenthesizeInlined(edits: readonly EditRequest[], from: number, original: Uint8Array): EditRequest[] {
  const index = edits.findIndex((e) => e.span && e.span.start <= from && from < e.span.end);
  const call = edits[index];
  if (!call?.span || !call.old_text.trimEnd().endsWith(')')) return [...edits];
  const body = call.new_text.trim();
  if (!topLevelOperator(body)) return [...edits];
  const before = Buffer.from(original.subarray(Math.max(0, call.span.start - 8), call.span.start)).toString('latin1').trimEnd();
  const after = Buffer.from(original.subarray(call.span.end, call.span.end + 8)).toString('latin1').trimStart();
  // An operator before (a comparison, not `=`, `op=` or `=>`) or after (`.`, `?`, `[`, `as` too) the call.
  const left = /=>$/.test(before) ? false : /=$/.test(before) ? /(?:==|!=|[^<>]<=|[^<>]>=)$/.test(before) : /[-+*/%&|^<>!]$/.test(before);
  const right = /^(?:==|!=|[-+*/%&|^<>!.?[]|as\b)/.test(after) && !/^[-+*/%&|^]=|^<<=|^>>=/.test(after);
  const operand = left || right;
  if (!operand) return [...edits];
  const copy = [...edits];
  copy[index] = { ...call, new_text: `(${call.new_text})` };
  return copy;
}

/** Whether `expr` has an operator outside brackets, strings and comments (a block or parenthesized expr has none). */
function topLevelOperator(expr: string): boolean {
  const code = codeOnly(expr);
  let depth = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (depth === 0 && (/[-+*/%&|^<>=!]/.test(c) || (/\bas\b/.test(code.slice(i, i + 3)) && /\W/.test(code[i - 1] ?? ' ')))) return true;
  }
  return false;
}

const INTEGERS = new Set(['u8', 'u16', 'u32', 'u64', 'u128', 'usize', 'i8', 'i16', 'i32', 'i64', 'i128', 'isize']);
const PLAIN_INTEGER = /^(?:0x[0-9a-fA-F_]+|0o[0-7_]+|0b[01_]+|[0-9][0-9_]*)$/;

/**
 * An unsuffixed integer literal that rust-analyzer pasted in place of a parameter used once (`low(5_000_000_000_000)`
 * with `fn low(x: u64) -> u32 { (x >> 8) as u32 }` became `(5_000_000_000_000 >> 8) as u32`, an i32 literal there)
 * gets the parameter's type as a suffix (`5_000_000_000_000_u64`). Only where the literal is written by one argument
 * alone and not in the callee's body, so every occurrence in the pasted text is that argument.
 */
export function suffixPastedLiterals(edits: readonly EditRequest[], from: number, callee: CalleeSource): EditRequest[] {
  const index = edits.findIndex((e) => e.span && e.span.start <= from && from < e.span.end);
  const call = edits[index];
  if (!call || !call.old_text.trimEnd().endsWith(')')) return [...edits];
  const args = callArguments(call.old_text.trimEnd());
  const params = fnParams(callee.text, callee.nameAt);
  const header = callee.text.slice(callee.nameAt, callee.text.indexOf(')', callee.nameAt));
  const takesSelf = /\(\s*(?:&\s*(?:'[\p{XID_Continue}]+\s+)?)?(?:mut\s+)?self\b/u.test(header);
  const method = new RegExp(`\\.\\s*${callee.name}\\s*(?:::\\s*<[\\s\\S]*>\\s*)?$`, 'u').test(call.old_text.slice(0, args.open).trimEnd());
  const given = takesSelf && !method ? args.list.slice(1) : args.list;
  if (given.length !== params.length) return [...edits];
  const body = fnBody(callee.text, callee.nameAt);
  if (body === null) return [...edits];
  let text = call.new_text;
  given.forEach((arg, i) => {
    const literal = arg.trim();
    const type = params[i]!.type;
    if (!PLAIN_INTEGER.test(literal) || !INTEGERS.has(type)) return;
    if (given.filter((a) => a.trim() === literal).length > 1 || new RegExp(`\\blet\\s+(?:mut\\s+)?${params[i]!.name}\\b`, 'u').test(text)) return;
    const token = new RegExp(`(?<![\\p{XID_Continue}.])${literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{XID_Continue}.])`, 'gu');
    if (new RegExp(token.source, 'u').test(body)) return;
    // Only where it is code (the pasted body's strings and comments keep their text).
    const code = codeOnly(text);
    const at = [...code.matchAll(token)].map((m) => m.index);
    for (const i of at.reverse()) text = `${text.slice(0, i + literal.length)}_${type}${text.slice(i + literal.length)}`;
  });
  if (text === call.new_text) return [...edits];
  const copy = [...edits];
  copy[index] = { ...call, new_text: text };
  return copy;
}

/** The arguments of the call `text` ends with (its last parenthesized group), split at top-level commas. */
function callArguments(text: string): { open: number; list: string[] } {
  const code = codeOnly(text);
  let depth = 0;
  let open = -1;
  for (let i = code.length - 1; i >= 0; i--) {
    if (')]}'.includes(code[i]!)) depth++;
    else if ('([{'.includes(code[i]!) && --depth === 0) {
      open = i;
      break;
    }
  }
  if (open < 0) return { open: 0, list: [] };
  const raw = text.slice(open + 1, -1);
  const list: string[] = [];
  let start = 0;
  depth = 0;
  const inner = code.slice(open + 1, -1);
  for (let i = 0; i < inner.length; i++) {
    if ('([{'.includes(inner[i]!)) depth++;
    else if (')]}'.includes(inner[i]!)) depth--;
    else if (inner[i] === ',' && depth === 0) {
      list.push(raw.slice(start, i));
      start = i + 1;
    }
  }
  if (raw.slice(start).trim() !== '') list.push(raw.slice(start));
  return { open, list };
}
