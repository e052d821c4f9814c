// A small Rust lexer that finds macro invocations and identifier tokens: the candidates lib/rust/unsure.ts asks rust-analyzer about (never a rename source by itself).

export interface MacroCall {
  /** Name before the `!`, e.g. `println`. */
  name: string;
  /** Byte range of the whole invocation, from the name to the closing delimiter. */
  start: number;
  end: number;
  /** `macro_rules! name { … }` is a definition, not a call. */
  definition: boolean;
}

export interface Token {
  text: string;
  start: number;
  end: number;
}

const IDENT_START = /[\p{XID_Start}_]/u;
const IDENT_CONTINUE = /[\p{XID_Continue}]/u;
const CLOSERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/** Identifier tokens (outside comments, strings and char literals) and the macro invocations that contain them. */
export function scanRust(text: string): { identifiers: Token[]; macros: MacroCall[] } {
  const identifiers: Token[] = [];
  const macros: MacroCall[] = [];
  const open: Array<{ closer: string; macro: MacroCall | null }> = [];
  let pendingMacro: { name: string; start: number; definition: boolean } | null = null;
  let bytes = 0;
  let i = 0;
  const advance = (to: number) => {
    bytes += Buffer.byteLength(text.slice(i, to));
    i = to;
  };
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      const nl = text.indexOf('\n', i);
      advance(nl === -1 ? text.length : nl);
      continue;
    }
    if (c === '/' && next === '*') {
      advance(blockCommentEnd(text, i));
      continue;
    }
    const stringEnd = stringLiteralEnd(text, i);
    if (stringEnd !== null) {
      advance(stringEnd);
      pendingMacro = null;
      continue;
    }
    if (c === "'") {
      const charEnd = charLiteralEnd(text, i);
      if (charEnd !== null) {
        advance(charEnd);
        continue;
      }
    }
    if (IDENT_START.test(c)) {
      let j = i + 1;
      while (j < text.length && IDENT_CONTINUE.test(text[j]!)) j++;
      const word = text.slice(i, j);
      const start = bytes;
      advance(j);
      identifiers.push({ text: word, start, end: bytes });
      let k = i;
      while (k < text.length && /\s/.test(text[k]!)) k++;
      if (text[k] === '!' && text[k + 1] !== '=') {
        const definition = word === 'macro_rules';
        pendingMacro = { name: word, start, definition };
        advance(k + 1);
        if (definition) {
          // `macro_rules! name {`: skip to the name so the body opens as a definition.
          let m = i;
          while (m < text.length && /\s/.test(text[m]!)) m++;
          let n = m;
          while (n < text.length && IDENT_CONTINUE.test(text[n]!)) n++;
          if (n > m) {
            identifiers.push({ text: text.slice(m, n), start: bytes + Buffer.byteLength(text.slice(i, m)), end: bytes + Buffer.byteLength(text.slice(i, n)) });
            advance(n);
          }
        }
      } else if (!(pendingMacro?.definition && pendingMacro.name === 'macro_rules')) {
        pendingMacro = null;
      }
      continue;
    }
    if (c in CLOSERS) {
      const macro = pendingMacro ? { name: pendingMacro.name, start: pendingMacro.start, end: -1, definition: pendingMacro.definition } : null;
      open.push({ closer: CLOSERS[c]!, macro });
      pendingMacro = null;
      advance(i + 1);
      continue;
    }
    if (c === ')' || c === ']' || c === '}') {
      advance(i + 1);
      const frame = open.pop();
      if (frame?.macro) {
        frame.macro.end = bytes;
        macros.push(frame.macro);
      }
      continue;
    }
    if (!/\s/.test(c)) pendingMacro = null;
    advance(i + 1);
  }
  macros.sort((a, b) => a.start - b.start || b.end - a.end);
  return { identifiers, macros };
}

function blockCommentEnd(text: string, from: number): number {
  let depth = 0;
  let i = from;
  while (i < text.length) {
    if (text.startsWith('/*', i)) {
      depth++;
      i += 2;
    } else if (text.startsWith('*/', i)) {
      depth--;
      i += 2;
      if (depth === 0) return i;
    } else i++;
  }
  return text.length;
}

/** End of a string literal starting at `i` ("…", b"…", c"…", r#"…"#, br"…"), or null when none starts there. */
function stringLiteralEnd(text: string, i: number): number | null {
  const prefix = /^(?:b|c)?(r)(#*)"|^(?:b|c)?"/.exec(text.slice(i, i + 260));
  if (!prefix) return null;
  if (i > 0 && IDENT_CONTINUE.test(text[i - 1]!)) return null;
  const start = i + prefix[0].length;
  if (prefix[1]) {
    const close = `"${prefix[2] ?? ''}`;
    const end = text.indexOf(close, start);
    return end === -1 ? text.length : end + close.length;
  }
  let j = start;
  while (j < text.length) {
    if (text[j] === '\\') j += 2;
    else if (text[j] === '"') return j + 1;
    else j++;
  }
  return text.length;
}

/** End of a char literal ('a', '\n', '\u{1F600}') at `i`; null for a lifetime or label ('a without a closing quote). */
function charLiteralEnd(text: string, i: number): number | null {
  if (text[i + 1] === '\\') {
    const close = text.indexOf("'", i + 2);
    return close === -1 ? null : close + 1;
  }
  const codePoint = text.codePointAt(i + 1);
  if (codePoint === undefined) return null;
  const width = codePoint > 0xffff ? 2 : 1;
  return text[i + 1 + width] === "'" ? i + 2 + width : null;
}
