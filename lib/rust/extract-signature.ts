// rust-analyzer's extract_function writes signatures that do not compile in ways the sweep over real crates keeps
// finding (strsim, percent-encoding, scopeguard): a `_` for a type it could not name, a generic parameter or lifetime
// of the enclosing fn or impl that the new free fn does not declare, a closure's type as a nested `impl Trait`, a type
// parameter the parameters never use (the call cannot infer it), `*v[i]` for a borrowed `v` (precedence: that derefs
// the element), and `&v` where the extracted code writes through `v`. The last two are repaired in its edit; the others
// are refused with a reason (UnsupportedByAdapter) instead of a patch that cargo check would reject.
import { TugError } from '../core/errors.js';
import type { EditRequest } from '../core/patchset.js';
import { restoreMut } from './extract-repair.js';

const IDENT = '[\\p{XID_Start}_][\\p{XID_Continue}]*';
const decoder = new TextDecoder();

interface Fn {
  edit: EditRequest;
  /** Index of `fn name` in the edit's text, of its `{`, and the text before it in that edit (an `impl … {` wrapper). */
  at: number;
  body: number;
  signature: string;
  params: Array<{ name: string; type: string }>;
  generics: string[];
  wrapper: string;
}

/** Splits `text` at top-level commas (brackets of all kinds nest). */
export function topLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if ('(<[{'.includes(c)) depth++;
    else if (')>]}'.includes(c) && !(c === '>' && text[i - 1] === '-')) depth--;
    if (c === ',' && depth === 0) {
      parts.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  if (cur.trim()) parts.push(cur.trim());
  return parts;
}

/** The names a `<…>` generic list declares (`'a`, `T`, `const N`). */
export function declared(list: string): string[] {
  return topLevel(list).map((p) => /^(?:const\s+)?('?[\p{XID_Start}_][\p{XID_Continue}]*)/u.exec(p)?.[1] ?? '').filter(Boolean);
}

/** The `<…>` right after index `from` (spaces allowed), or ''. */
export function anglesAt(text: string, from: number): string {
  let i = from;
  while (/\s/.test(text[i] ?? '')) i++;
  if (text[i] !== '<') return '';
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    if (text[j] === '<') depth++;
    else if (text[j] === '>' && text[j - 1] !== '-' && --depth === 0) return text.slice(i + 1, j);
  }
  return '';
}

function findFn(edits: readonly EditRequest[], name: string): Fn | null {
  for (const edit of edits) {
    const m = new RegExp(`\\bfn\\s+${name}\\b`, 'u').exec(edit.new_text);
    if (!m) continue;
    const text = edit.new_text;
    const generics = anglesAt(text, m.index + m[0].length);
    const open = text.indexOf('(', m.index + m[0].length + generics.length);
    let depth = 0;
    let close = open;
    for (; close < text.length; close++) {
      if (text[close] === '(') depth++;
      else if (text[close] === ')' && --depth === 0) break;
    }
    const body = text.indexOf('{', close);
    const params = topLevel(text.slice(open + 1, close)).flatMap((p) => {
      const colon = /^(?:mut\s+)?([\p{XID_Start}_][\p{XID_Continue}]*)\s*:(?!:)\s*([\s\S]*)$/u.exec(p);
      return colon ? [{ name: colon[1]!, type: colon[2]!.trim() }] : [];
    });
    return { edit, at: m.index, body, signature: text.slice(m.index, body), params, generics: declared(generics), wrapper: text.slice(0, m.index) };
  }
  return null;
}

/** Generic names of the fn and the impl around byte `offset` of the original file (what the selected code could use). */
export function outerGenerics(original: string, offset: number): { fn: string[]; impl: string[]; implBody: [number, number] | null } {
  const before = original.slice(0, offset);
  const fnHead = [...before.matchAll(new RegExp(`\\bfn\\s+${IDENT}`, 'gu'))].pop();
  // An impl block's head starts an item (`impl Fn()` in a type does not).
  const implHead = [...before.matchAll(/(?:^|[;}\n])\s*(?:unsafe\s+)?(impl)\b/gu)].pop();
  const fn = fnHead ? declared(anglesAt(original, fnHead.index! + fnHead[0].length)) : [];
  if (!implHead) return { fn, impl: [], implBody: null };
  const implAt = implHead.index! + implHead[0].length - 4;
  const open = original.indexOf('{', implAt);
  let depth = 0;
  let close = open;
  for (; close < original.length; close++) {
    if (original[close] === '{') depth++;
    else if (original[close] === '}' && --depth === 0) break;
  }
  const inside = open < offset && offset < close;
  return { fn, impl: inside ? declared(anglesAt(original, implAt + 4)) : [], implBody: inside ? [open, close] : null };
}

const mentions = (text: string, word: string) =>
  word.startsWith("'") ? new RegExp(`${word}(?![\\p{XID_Continue}])`, 'u').test(text) : new RegExp(`(?<![\\p{XID_Continue}'])${word}(?![\\p{XID_Continue}])`, 'u').test(text);

/** A `_` standing for a type or an array length (percent-encoding: `[u32; _]`), which no fn signature may hold. */
const PLACEHOLDER = /(^|[<,(&\s[;])_(?=$|[>,)\s\];])/;

/** A closure without `move` (`|x| …`, `|| …`), which borrows what it names. */
const BORROWING_CLOSURE = /(?<!\bmove\s*)(?<![\p{XID_Continue})\]]\s*)\|(?:[^|;{}]*)\|/u;

function refuse(message: string, reason: string): never {
  throw new TugError('UnsupportedByAdapter', message, { details: { operation: 'extract-function', offered: ['extract_function'], reason } });
}

/**
 * Checks (and repairs) the fn `name` that extract_function's `edits` add; `original` is the file, `from`/`to` the
 * selection's byte range. Returns the edits to apply; throws UnsupportedByAdapter for what cannot compile.
 */
export function checkExtractedSignature(edits: readonly EditRequest[], name: string, original: Uint8Array, from: number, to: number): EditRequest[] {
  const fn = findFn(edits, name);
  if (!fn) return [...edits];
  const text = decoder.decode(original);
  const selected = decoder.decode(original.subarray(from, to));
  const placeholder = fn.params.find((p) => PLACEHOLDER.test(p.type));
  if (placeholder) refuse(`rust-analyzer could not name the type of \`${placeholder.name}\` for the new fn (it wrote \`${placeholder.type}\`)`, 'type rust-analyzer cannot name');
  const ret = /->([\s\S]*?)(?:\bwhere\b|$)/.exec(fn.signature)?.[1] ?? '';
  if (PLACEHOLDER.test(ret)) refuse('rust-analyzer could not name the return type of the new fn (it wrote `_`)', 'type rust-analyzer cannot name');
  const nested = fn.params.find((p) => (p.type.match(/\bimpl\b/g) ?? []).length > 1 || /\bimpl\b/.test(p.type.replace(/^&\s*(?:'\w+\s+)?(?:mut\s+)?/, '').replace(/^impl\b/, '')));
  if (nested) refuse(`\`${nested.name}\` holds a closure, whose type cannot be written in the new fn's signature (rust-analyzer wrote \`${nested.type}\`)`, 'closure type in signature');
  // scopeguard: `let value = guard((), |()| drops.set(..))` extracted returns `impl FnOnce(())`, a closure that borrows
  // `drops` (a parameter of the new fn, or a local it returns beside the closure): E0700, E0597, E0505.
  if (/\bimpl\b/.test(ret) && BORROWING_CLOSURE.test(selected)) {
    refuse(`the new fn would return a closure (rust-analyzer wrote \`${ret.trim()}\`) that borrows what the fn receives or returns beside it`, 'returned closure borrows');
  }
  const unused = fn.generics.find((g) => !g.startsWith("'") && !usedElsewhere(fn, g, ret));
  if (unused) refuse(`rust-analyzer gave the new fn a type parameter \`${unused}\` that its parameters do not use, so the call could not infer it`, 'generic parameter the call cannot infer');
  const outer = outerGenerics(text, from);
  const insertedAt = Buffer.from(original).subarray(0, fn.edit.span!.start).toString('utf8').length;
  const inImpl = outer.implBody !== null && outer.implBody[0] < insertedAt && insertedAt < outer.implBody[1];
  const wrapperGenerics = [...fn.wrapper.matchAll(/\bimpl\s*/g)].flatMap((m) => declared(anglesAt(fn.wrapper, m.index + m[0].length)));
  const inScope = new Set([...fn.generics, ...wrapperGenerics, ...(inImpl ? outer.impl : []), "'static", "'_"]);
  const missing = [...new Set([...outer.fn, ...outer.impl])].find((g) => !inScope.has(g) && mentions(fn.signature.replace(new RegExp(`^fn\\s+${name}`, 'u'), ''), g));
  if (missing) refuse(`the new fn's signature names \`${missing}\`, a generic parameter of the code around the selection that rust-analyzer did not carry over`, 'generic parameter not carried over');
  const enclosing = text.slice(0, Buffer.from(original).subarray(0, from).toString('utf8').length);
  const rest = text.slice(enclosing.length + selected.length);
  return restoreMut(repairBorrows(edits, fn, name, selected, text, from), name, fn.params, selected, enclosing, original, rest);
}

/** Whether generic `g` of the new fn appears in a parameter, the return type, another generic's bound or a where
 * predicate of another type: else nothing at the call tells what it is. */
function usedElsewhere(fn: Fn, g: string, ret: string): boolean {
  if (fn.params.some((p) => mentions(p.type, g)) || mentions(ret, g)) return true;
  const head = /^fn\s+[\p{XID_Continue}]+/u.exec(fn.signature);
  const list = head ? anglesAt(fn.signature, head[0].length) : '';
  if (topLevel(list).some((item) => !new RegExp(`^(?:const\\s+)?${g}\\b`, 'u').test(item) && mentions(item, g))) return true;
  const where = /\bwhere\b([\s\S]*)$/.exec(fn.signature)?.[1] ?? '';
  return topLevel(where).some((pred) => !new RegExp(`^${g}\\s*:`, 'u').test(pred) && mentions(pred, g));
}

/** Whether the call of the new fn passes `&v` or `&mut v`: rust-analyzer turned an owned local into a reference. */
function borrowedAtCall(edits: readonly EditRequest[], name: string, v: string): boolean {
  const call = new RegExp(`\\b${name}\\s*\\(([^;]*?)\\)\\s*;?`, 'u');
  return edits.some((e) => {
    const args = call.exec(e.new_text)?.[1];
    return args !== undefined && new RegExp(`(?:^|,)\\s*&\\s*(?:mut\\s+)?${v}\\s*(?:,|$)`, 'u').test(args);
  });
}

/**
 * percent-encoding: `debug_assert!(raw == &*bytes as *const [u8])` for an owned `bytes` the new fn receives as
 * `&Vec<u8>`: rust-analyzer rewrites uses in code but not inside a macro's arguments, where `*bytes` now derefs only
 * the reference (E0606). There it becomes `**bytes`; `*bytes.f` and `*bytes[i]` deref the field or element, left alone.
 */
function derefInMacros(body: string, v: string): string {
  let out = '';
  let at = 0;
  for (const m of body.matchAll(new RegExp(`${IDENT}!\\s*([([{])`, 'gu'))) {
    const open = m.index! + m[0].length - 1;
    if (open < at) continue;
    const close = { '(': ')', '[': ']', '{': '}' }[m[1]!]!;
    let depth = 0;
    let end = open;
    for (; end < body.length; end++) {
      if (body[end] === m[1]) depth++;
      else if (body[end] === close && --depth === 0) break;
    }
    out += body.slice(at, open) + body.slice(open, end).replace(new RegExp(`(?<![\\p{XID_Continue}*])\\*(${v})(?![\\p{XID_Continue}]|\\s*[.[(])`, 'gu'), '**$1');
    at = end;
  }
  return out + body.slice(at);
}

/** `*v[i]`/`*v.f` for a borrowed parameter `v` loses the `*`; a `&v` the new body writes through becomes `&mut v`. */
function repairBorrows(edits: readonly EditRequest[], fn: Fn, name: string, selected: string, original: string, from: number): EditRequest[] {
  let body = fn.edit.new_text.slice(fn.body);
  const mutable: string[] = [];
  const enclosing = original.slice(0, Buffer.from(original).subarray(0, from).toString('utf8').length);
  for (const p of fn.params) {
    if (!p.type.startsWith('&')) continue;
    if (!selected.includes(`*${p.name}`)) body = body.replace(new RegExp(`\\*(${p.name})(?=\\s*[.[])`, 'gu'), '$1');
    else if (borrowedAtCall(edits, name, p.name)) body = derefInMacros(body, p.name);
    if (/^&\s*mut\b/.test(p.type)) continue;
    const writes = new RegExp(`(?<![\\p{XID_Continue}.])${p.name}\\s*(?:\\[[^\\]]*\\]|\\.\\s*${IDENT})+\\s*(?:[-+*/%|&^]|<<|>>)?=(?!=)`, 'u').test(body);
    const methodInMacro = new RegExp(`${IDENT}!\\s*[([{][^;]*(?<![\\p{XID_Continue}.])${p.name}\\s*\\.\\s*${IDENT}\\s*\\(`, 'u').test(body);
    if (writes || (methodInMacro && new RegExp(`\\blet\\s+mut\\s+${p.name}\\b`, 'u').test(enclosing))) mutable.push(p.name);
  }
  let signature = fn.signature;
  for (const m of mutable) signature = signature.replace(new RegExp(`(\\b${m}\\s*:\\s*)&\\s*(?!mut\\b)`, 'u'), '$1&mut ');
  const rewritten = fn.edit.new_text.slice(0, fn.at) + signature + body;
  return edits.map((e) => {
    let t = e === fn.edit ? rewritten : e.new_text;
    for (const m of mutable) {
      t = t.replace(new RegExp(`(\\b${name}\\s*\\([^;]*?)&(${m})(?![\\p{XID_Continue}])`, 'u'), '$1&mut $2');
    }
    return t === e.new_text ? e : { ...e, new_text: t };
  });
}
