// Text helpers of the Rust move: a masked view of a file (comments and literals blanked, so braces and `use` can be
// counted), its `use` items parsed into trees, and string edits applied to a text. Everything here counts JS string
// indexes (UTF-16 units, as LSP positions do), never bytes; lib/rust/move-plan.ts converts at its edge.

export interface StrEdit {
  start: number;
  end: number;
  text: string;
}

/** `text` with comments, strings and char literals replaced by spaces (newlines kept): same length, same lines. */
export function maskRust(text: string): string {
  const out = text.split('');
  const blank = (from: number, to: number) => {
    for (let k = from; k < to && k < out.length; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '/' && text[i + 1] === '/') {
      const nl = text.indexOf('\n', i);
      const end = nl < 0 ? text.length : nl;
      blank(i, end);
      i = end;
    } else if (c === '/' && text[i + 1] === '*') {
      let depth = 0;
      let j = i;
      while (j < text.length) {
        if (text.startsWith('/*', j)) (depth++, (j += 2));
        else if (text.startsWith('*/', j)) {
          j += 2;
          if (--depth === 0) break;
        } else j++;
      }
      blank(i, j);
      i = j;
    } else if (/[brc"]/.test(c) && !(i > 0 && /[\p{XID_Continue}]/u.test(text[i - 1]!))) {
      const m = /^(?:b|c)?r(#*)"|^(?:b|c)?"/.exec(text.slice(i, i + 260));
      if (!m) {
        i++;
        continue;
      }
      let j = i + m[0].length;
      if (m[1] !== undefined) {
        const close = `"${m[1]}`;
        const at = text.indexOf(close, j);
        j = at < 0 ? text.length : at + close.length;
      } else {
        while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
        j++;
      }
      blank(i + 1, j - 1);
      i = j;
    } else if (c === "'" && /^'(?:\\.[^']*|[^'\\])'/u.test(text.slice(i, i + 12))) {
      const m = /^'(?:\\.[^']*|[^'\\])'/u.exec(text.slice(i, i + 12))!;
      blank(i + 1, i + m[0].length - 1);
      i += m[0].length;
    } else i++;
  }
  return out.join('');
}

/** Brace depth at every index of a masked text (the depth before the character). */
export function depths(masked: string): Int32Array {
  const depth = new Int32Array(masked.length + 1);
  let d = 0;
  for (let i = 0; i < masked.length; i++) {
    depth[i] = d;
    if (masked[i] === '{') d++;
    else if (masked[i] === '}') d--;
  }
  depth[masked.length] = d;
  return depth;
}

export interface Seg {
  text: string;
  start: number;
  end: number;
}

/** One node of a use tree: a path, then a leaf (`as alias`), a group `{…}` or a glob `*`. */
export interface UseTree {
  start: number;
  end: number;
  path: Seg[];
  kind: 'leaf' | 'group' | 'glob';
  alias?: Seg;
  children: UseTree[];
  /** Index of the `{` of a group. */
  open?: number;
}

export interface UseItem {
  /** From the visibility (or `use`) to just after the `;`. */
  start: number;
  end: number;
  /** The visibility text (`pub`, `pub(crate)`) or ''. */
  vis: string;
  tree: UseTree;
  /** Brace depth of the item: 0 at the top of a file. */
  depth: number;
  /** Its `#[cfg(…)]` attributes, as written. */
  cfg: string[];
}

const USE = /(?<![\p{XID_Continue}])(?:(pub(?:\s*\([^)]*\))?)\s+)?use(?![\p{XID_Continue}])/gu;

/** Every `use` item of a file (at any depth), parsed. Items that do not parse are left out. */
export function useItems(text: string, masked = maskRust(text)): UseItem[] {
  const depth = depths(masked);
  const found: UseItem[] = [];
  for (const m of masked.matchAll(USE)) {
    const before = masked.slice(0, m.index).trimEnd();
    if (before !== '' && !/[;{}\]]$/.test(before)) continue;
    const semi = masked.indexOf(';', m.index);
    if (semi < 0) continue;
    const tokens = tokenize(masked, m.index + m[0].length, semi);
    const parsed = tokens ? parseTree(tokens, 0) : null;
    if (!parsed || parsed.next !== tokens!.length) continue;
    found.push({ start: m.index, end: semi + 1, vis: m[1] ?? '', tree: parsed.tree, depth: depth[m.index]!, cfg: cfgBefore(masked, text, m.index) });
  }
  return found;
}

/** The `#[cfg(…)]` attributes right before `at` (other attributes between them are skipped). */
export function cfgBefore(masked: string, text: string, at: number): string[] {
  const found: string[] = [];
  let i = at;
  for (;;) {
    while (i > 0 && /\s/.test(masked[i - 1]!)) i--;
    if (masked[i - 1] !== ']') return found;
    let depth = 0;
    let j = i - 1;
    for (; j >= 0; j--) {
      if (masked[j] === ']') depth++;
      else if (masked[j] === '[' && --depth === 0) break;
    }
    if (j < 1 || masked[j - 1] !== '#') return found;
    const attr = text.slice(j - 1, i);
    if (/^#\[\s*cfg\s*\(/.test(attr)) found.unshift(attr);
    i = j - 1;
  }
}

type Tok = { t: string; start: number; end: number };

function tokenize(masked: string, from: number, to: number): Tok[] | null {
  const tokens: Tok[] = [];
  const re = /\s+|::|[{},*]|(?:r#)?[\p{XID_Start}_][\p{XID_Continue}]*|\$crate/uy;
  re.lastIndex = from;
  while (re.lastIndex < to) {
    const start = re.lastIndex;
    const m = re.exec(masked);
    if (!m || m.index !== start) return null;
    if (!/^\s+$/.test(m[0])) tokens.push({ t: m[0], start, end: start + m[0].length });
  }
  return tokens;
}

function parseTree(tokens: Tok[], at: number): { tree: UseTree; next: number } | null {
  const first = tokens[at];
  if (!first) return null;
  const path: Seg[] = [];
  let i = at;
  if (tokens[i]?.t === '::') i++;
  for (;;) {
    const tok = tokens[i];
    if (!tok) return null;
    if (tok.t === '{') {
      const children: UseTree[] = [];
      let j = i + 1;
      while (tokens[j] && tokens[j]!.t !== '}') {
        const child = parseTree(tokens, j);
        if (!child) return null;
        children.push(child.tree);
        j = child.next;
        if (tokens[j]?.t === ',') j++;
      }
      if (!tokens[j]) return null;
      return { tree: { start: first.start, end: tokens[j]!.end, path, kind: 'group', children, open: tok.start }, next: j + 1 };
    }
    if (tok.t === '*') return { tree: { start: first.start, end: tok.end, path, kind: 'glob', children: [] }, next: i + 1 };
    if (!/^[\p{XID_Start}_$r]/u.test(tok.t)) return null;
    path.push({ text: tok.t, start: tok.start, end: tok.end });
    i++;
    if (tokens[i]?.t === '::') {
      i++;
      continue;
    }
    if (tokens[i]?.t === 'as' && tokens[i + 1]) {
      const alias = tokens[i + 1]!;
      return { tree: { start: first.start, end: alias.end, path, kind: 'leaf', alias: { text: alias.t, start: alias.start, end: alias.end }, children: [] }, next: i + 2 };
    }
    return { tree: { start: first.start, end: tok.end, path, kind: 'leaf', children: [] }, next: i };
  }
}

/** A leaf of a use tree with the whole path leading to it and the name it binds (null for a glob or `_`). */
export interface UseLeaf {
  path: Seg[];
  name: string | null;
  alias: string | null;
  glob: boolean;
  /** The trees from the root down to the leaf's own. */
  chain: UseTree[];
}

export function leavesOf(tree: UseTree, prefix: Seg[] = [], chain: UseTree[] = []): UseLeaf[] {
  const path = [...prefix, ...tree.path];
  const here = [...chain, tree];
  if (tree.kind === 'group') return tree.children.flatMap((c) => leavesOf(c, path, here));
  if (tree.kind === 'glob') return [{ path, name: null, alias: null, glob: true, chain: here }];
  const last = path[path.length - 1];
  const selfLeaf = last?.text === 'self';
  const own = selfLeaf ? path.slice(0, -1) : path;
  const bound = tree.alias?.text ?? own[own.length - 1]?.text ?? null;
  return [{ path: own, name: bound === '_' ? null : bound, alias: tree.alias?.text ?? null, glob: false, chain: here }];
}

/** `text` with `edits` applied (they must not overlap). */
export function applyStrEdits(text: string, edits: readonly StrEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    if (e.start < at) throw new Error(`overlapping edits at ${e.start}`);
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}

/** Index of the start of the line holding `at`. */
export function lineStart(text: string, at: number): number {
  return text.lastIndexOf('\n', at - 1) + 1;
}

/** The span to delete for [start, end): widened to whole lines when nothing else is on them, with one blank line before. */
export function wholeLines(text: string, start: number, end: number): { start: number; end: number } {
  const ls = lineStart(text, start);
  let le = text.indexOf('\n', end);
  le = le < 0 ? text.length : le + 1;
  if (text.slice(ls, start).trim() !== '' || text.slice(end, le).trim() !== '') return { start, end };
  let s = ls;
  // One blank line before the removed lines goes with them, so no double blank is left behind.
  const prev = lineStart(text, s - 1);
  if (s > 0 && text.slice(prev, s).trim() === '') s = prev;
  return { start: s, end: le };
}

/** Where a new top-level `use` goes: after the last top-level one, else after the file's inner attributes and `//!` docs. */
export function importPoint(text: string, masked = maskRust(text)): { at: number; after: 'use' | 'head' } {
  const top = useItems(text, masked).filter((u) => u.depth === 0);
  if (top.length > 0) {
    const last = top[top.length - 1]!;
    const nl = text.indexOf('\n', last.end);
    return { at: nl < 0 ? text.length : nl + 1, after: 'use' };
  }
  return { at: headEnd(text), after: 'head' };
}

/** End of a file's head: `//!` docs, `#![…]` attributes and the blank lines among them. */
export function headEnd(text: string): number {
  const re = /(?:[ \t]*(?:\/\/![^\n]*|#!\[[\s\S]*?\][ \t]*|\/\*![\s\S]*?\*\/[ \t]*)?\n)/y;
  let at = 0;
  let last = 0;
  while (at < text.length) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m || m[0].length === 0) break;
    at += m[0].length;
    if (m[0].trim() !== '') last = at;
  }
  return last;
}
