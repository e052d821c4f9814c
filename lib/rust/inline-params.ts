// rust-analyzer's inline_call binds an argument it cannot paste as is to a `let` named after the parameter, without
// the parameter's type: `u128_mulhi(n, 156927543384667019095894735580191660403)` (itoa in the sweep) became
// `let y = 156927543384667019095894735580191660403;`, which rustc then types as i32 (overflowing_literals, E0080-like
// deny). The call had fixed the literal's type to the parameter's; the `let` gets that type back as an annotation.
// A `let` with a type is a coercion site like an argument, so `let y: u128 = <arg>;` means what passing it meant.
import type { EditRequest } from '../core/patchset.js';
import { anglesAt, outerGenerics } from './extract-signature.js';
import { annotationFor, codeOnly, type CalleeSource } from './inline-call.js';

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
