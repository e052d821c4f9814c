// Two mistakes rust-analyzer's extract_function makes, found by the sweep on real crates, repaired in its edit before
// tug applies it: a `*` put before a macro call whose arguments use a parameter taken by reference (shlex:
// `*assert_eq!(sh.line_no, 3);`), and an elided lifetime in the new fn's return type that its parameters make
// ambiguous (percent-encoding: `fn f(iter: &mut slice::Iter<'_, u8>) -> slice::Iter<'_, u8>`, E0106); and two places
// where it drops a `mut` the code needs (restoreMut: strsim's `let mut cache`, `bi.next()`).
import type { EditRequest } from '../core/patchset.js';

const IDENT = '[\\p{XID_Start}_][\\p{XID_Continue}]*';

/** The edits with the new function `name` repaired; `selected` is the code the user selected. */
export function repairExtracted(edits: readonly EditRequest[], selected: string, name: string): EditRequest[] {
  return edits.map((e) => {
    const at = e.new_text.search(new RegExp(`\\bfn\\s+${name}\\b`, 'u'));
    if (at < 0) return e;
    const head = e.new_text.slice(0, at);
    let fn = e.new_text.slice(at);
    // A deref rust-analyzer put before a macro call (it cannot see into the call): auto-deref reaches fields and
    // methods; a comparison that needed it fails cargo check, which is the verification's to say.
    fn = fn.replace(new RegExp(`\\*(${IDENT}!\\s*[(\\[{])`, 'gu'), (whole, call: string, offset: number, text: string) => {
      const before = text.slice(Math.max(0, offset - 1), offset);
      return selected.includes(`*${call}`) || /[\p{XID_Continue})\]]/u.test(before) ? whole : call;
    });
    fn = nameElidedLifetime(fn, name);
    return fn === e.new_text.slice(at) ? e : { ...e, new_text: head + fn };
  });
}

/**
 * `'_` in the return type is E0106 when the parameters hold more than one elided lifetime (each `&` without one and
 * each `'_`). Every `'_` of the signature becomes one named lifetime: the value returned comes from the borrowed
 * data, which is what rust-analyzer's `'_` in the parameter type stood for.
 */
function nameElidedLifetime(fn: string, name: string): string {
  const open = fn.indexOf('(');
  const body = fn.indexOf('{');
  if (open < 0 || body < 0) return fn;
  const signature = fn.slice(0, body);
  const arrow = signature.indexOf('->');
  if (arrow < 0) return fn;
  const params = signature.slice(open, arrow);
  const output = signature.slice(arrow);
  const elided = (params.match(/&(?!\s*')/g) ?? []).length + (params.match(/'_\b/g) ?? []).length;
  if (!/'_\b/.test(output) || elided < 2 || /&\s*(mut\s+)?self\b/.test(params)) return fn;
  const used = new Set([...signature.matchAll(/'([a-z]\w*)/g)].map((m) => m[1]));
  const life = ['a', 'b', 'c', 'd', 'e'].find((l) => !used.has(l)) ?? 'tug';
  const generics = new RegExp(`^(fn\\s+${name}\\s*)(<)?`, 'u');
  const named = signature.replaceAll(/'_\b/g, `'${life}`).replace(generics, (_, fnName: string, lt?: string) => (lt ? `${fnName}<'${life}, ` : `${fnName}<'${life}>`));
  return named + fn.slice(body);
}

/** Whether the last `let` of `name` in `text` binds it `mut` (`let mut name`, also inside a tuple pattern). */
function lastLetIsMut(text: string, name: string): boolean {
  const lets = [...text.matchAll(new RegExp(`\\blet\\s+(?:\\([^=;]*?)?(mut\\s+)?${name}(?![\\p{XID_Continue}])`, 'gu'))];
  return lets.length > 0 && lets.at(-1)![1] !== undefined;
}

/**
 * rust-analyzer drops `mut` in two places. A `let mut x` of the selection that the new fn returns is bound at the call
 * as `let x = f(…)` though the code after it writes x (strsim `cache[j] = …`, E0596); it gets its `mut` back. A
 * `let mut x` declared before the selection and passed by value becomes a parameter `x: T` though the new body calls
 * methods on it or writes it (strsim `bi.next()`, E0596); it becomes `mut x: T`.
 */
export function restoreMut(edits: readonly EditRequest[], name: string, params: readonly { name: string; type: string }[], selected: string, enclosing: string, original: Uint8Array, rest: string): EditRequest[] {
  return mutParams(bindMut(edits, name, selected, original, rest), name, params, enclosing);
}

/** Whether `body` writes `v` (`v = `, `v[i] += `, `v.f = `), borrows it `&mut` or calls a method on it. */
function mutates(body: string, v: string): boolean {
  return new RegExp(`&\\s*mut\\s+${v}\\b|(?<![\\p{XID_Continue}.])${v}\\s*(?:\\.\\s*${IDENT}\\s*(?:::<[^>]*>\\s*)?\\(|(?:\\[[^\\]]*\\]|\\.\\s*${IDENT})*\\s*(?:[-+*/%|&^]|<<|>>)?=(?!=))`, 'u').test(body);
}

/**
 * `let x = f(…)` → `let mut x = f(…)` for each name the selection bound `let mut` and the code after it (`rest`) may
 * write; the call may span several edits.
 */
function bindMut(edits: readonly EditRequest[], name: string, selected: string, original: Uint8Array, rest: string): EditRequest[] {
  const decoder = new TextDecoder();
  const sorted = [...edits].sort((a, b) => (a.span?.start ?? 0) - (b.span?.start ?? 0));
  // The file as the edits leave it, in pieces that remember where they came from.
  const pieces: { from: number; text: string; edit: EditRequest | null; at: number }[] = [];
  let cursor = 0;
  let from = 0;
  for (const e of sorted) {
    const text = decoder.decode(original.subarray(cursor, e.span!.start));
    pieces.push({ from, text, edit: null, at: cursor }, { from: from + text.length, text: e.new_text, edit: e, at: e.span!.start });
    from += text.length + e.new_text.length;
    cursor = e.span!.end;
  }
  pieces.push({ from, text: decoder.decode(original.subarray(cursor)), edit: null, at: cursor });
  const after = pieces.map((p) => p.text).join('');
  const call = new RegExp(`\\blet\\s+(\\([^=;()]*\\)|${IDENT})\\s*=\\s*(?:${IDENT}\\s*::\\s*|self\\s*\\.\\s*)?${name}\\s*\\(`, 'gu');
  const word = new RegExp(`(?<![\\p{XID_Continue}])(mut\\s+)?(${IDENT})(?![\\p{XID_Continue}])`, 'gu');
  const inserts: number[] = [];
  for (const m of after.matchAll(call)) {
    const patternAt = m.index + m[0].indexOf(m[1]!, 3);
    for (const w of m[1]!.matchAll(word)) {
      if (!w[1] && w[2] !== 'mut' && w[2] !== '_' && lastLetIsMut(selected, w[2]!) && mutates(rest, w[2]!)) inserts.push(patternAt + w.index);
    }
  }
  if (inserts.length === 0) return [...edits];
  const changed = new Map<EditRequest, string>();
  const added: EditRequest[] = [];
  for (const at of inserts.sort((a, b) => b - a)) {
    // An edit's text that starts at the name takes the `mut`; else it goes into the unchanged text as an edit of its own.
    const piece = pieces.find((p) => p.edit !== null && at >= p.from && at < p.from + p.text.length) ?? pieces.find((p) => p.edit === null && at >= p.from && at < p.from + p.text.length);
    if (!piece) continue;
    if (piece.edit) {
      const text = changed.get(piece.edit) ?? piece.edit.new_text;
      changed.set(piece.edit, `${text.slice(0, at - piece.from)}mut ${text.slice(at - piece.from)}`);
    } else {
      const byte = piece.at + Buffer.byteLength(piece.text.slice(0, at - piece.from));
      added.push({ file: edits[0]!.file, span: { start: byte, end: byte }, old_text: '', new_text: 'mut ' });
    }
  }
  return [...edits.map((e) => (changed.has(e) ? { ...e, new_text: changed.get(e)! } : e)), ...added];
}

/** A by-value parameter for a `let mut x` before the selection that the new body writes or calls methods on: `mut x`. */
function mutParams(edits: readonly EditRequest[], name: string, params: readonly { name: string; type: string }[], enclosing: string): EditRequest[] {
  return edits.map((e) => {
    let text = e.new_text;
    const at = text.search(new RegExp(`\\bfn\\s+${name}\\b`, 'u'));
    const open = at < 0 ? -1 : text.indexOf('{', at);
    if (open >= 0) {
      let signature = text.slice(at, open);
      const body = text.slice(open);
      for (const p of params) {
        if (p.type.startsWith('&') || p.name === 'self' || !lastLetIsMut(enclosing, p.name)) continue;
        if (mutates(body, p.name)) signature = signature.replace(new RegExp(`([(,]\\s*)(${p.name}\\s*:)`, 'u'), '$1mut $2');
      }
      text = text.slice(0, at) + signature + body;
    }
    return text === e.new_text ? e : { ...e, new_text: text };
  });
}
