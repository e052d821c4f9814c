// Rust parameter and argument lists read from source text: where a `(…)` list closes and where its top-level items
// are, with strings, chars, lifetimes, comments and closure parameters (`|a, b|`) stepped over, so change-signature
// can reorder, drop and insert items without a parser of its own for the whole language.

export interface Item {
  start: number;
  end: number;
}

export interface List {
  items: Item[];
  /** Index of the closing `)`. */
  close: number;
}

const OPENERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/**
 * The items of the list whose `(` is at `open`. `types`: a parameter list, where `<…>` groups too (`HashMap<K, V>`);
 * in an argument list `<` and `>` are comparisons and `|` opens a closure's parameters.
 */
export function splitList(text: string, open: number, types: boolean): List | null {
  const stack: string[] = [];
  const items: Item[] = [];
  let itemStart = open + 1;
  let i = open + 1;
  const push = (end: number) => {
    let s = itemStart;
    let e = end;
    while (s < e && /\s/.test(text[s]!)) s++;
    while (e > s && /\s/.test(text[e - 1]!)) e--;
    if (e > s) items.push({ start: s, end: e });
  };
  while (i < text.length) {
    const c = text[i]!;
    const skipped = skipAtom(text, i);
    if (skipped > i) {
      i = skipped;
      continue;
    }
    if (!types && c === '|' && stack.length === 0 && text.slice(itemStart, i).trim().replace(/^move$/, '') === '') {
      // A closure's parameters: up to the `|` that closes them (they may hold commas and patterns).
      const closing = closureEnd(text, i);
      if (closing < 0) return null;
      i = closing + 1;
      continue;
    }
    if (c in OPENERS || (types && c === '<')) stack.push(c === '<' ? '>' : OPENERS[c]!);
    else if (types && c === '>' && text[i - 1] !== '-' && text[i - 1] !== '=') {
      if (stack.at(-1) === '>') stack.pop();
    } else if (c === ')' || c === ']' || c === '}') {
      while (stack.at(-1) === '>') stack.pop();
      if (stack.length === 0) {
        if (c !== ')') return null;
        push(i);
        return { items, close: i };
      }
      if (stack.pop() !== c) return null;
    } else if (c === ',' && stack.length === 0) {
      push(i);
      itemStart = i + 1;
    }
    i++;
  }
  return null;
}

/** Past a comment, string, char or lifetime starting at `i`; `i` itself when none starts there. */
export function skipAtom(text: string, i: number): number {
  const c = text[i]!;
  if (c === '/' && text[i + 1] === '/') {
    const nl = text.indexOf('\n', i);
    return nl < 0 ? text.length : nl;
  }
  if (c === '/' && text[i + 1] === '*') {
    let depth = 1;
    let j = i + 2;
    while (j < text.length && depth > 0) {
      if (text.startsWith('/*', j)) (depth++, (j += 2));
      else if (text.startsWith('*/', j)) (depth--, (j += 2));
      else j++;
    }
    return j;
  }
  const raw = /^b?r(#*)"/.exec(text.slice(i, i + 260));
  if (raw && !/[\w]/.test(text[i - 1] ?? '')) {
    const end = text.indexOf(`"${raw[1]}`, i + raw[0].length);
    return end < 0 ? text.length : end + 1 + raw[1]!.length;
  }
  if (c === '"' || (c === 'b' && text[i + 1] === '"' && !/[\w]/.test(text[i - 1] ?? ''))) {
    let j = c === 'b' ? i + 2 : i + 1;
    while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
    return j + 1;
  }
  if (c === "'") {
    const char = /^'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'/u.exec(text.slice(i, i + 16));
    if (char) return i + char[0].length;
    const lifetime = /^'[\p{XID_Start}_][\p{XID_Continue}]*/u.exec(text.slice(i, i + 100));
    if (lifetime) return i + lifetime[0].length;
  }
  return i;
}

function closureEnd(text: string, bar: number): number {
  if (text[bar + 1] === '|') return bar + 1;
  let depth = 0;
  for (let i = bar + 1; i < text.length; i++) {
    const skipped = skipAtom(text, i);
    if (skipped > i) {
      i = skipped - 1;
      continue;
    }
    const c = text[i]!;
    if (c === '(' || c === '[' || c === '<' || c === '{') depth++;
    else if ((c === ')' || c === ']' || c === '}' || (c === '>' && text[i - 1] !== '-')) && depth > 0) depth--;
    else if (c === '|' && depth === 0) return i;
  }
  return -1;
}

/** Past balanced `<…>` at `i` (generics, a turbofish); `i` when none starts there. */
export function skipAngles(text: string, i: number): number {
  if (text[i] !== '<') return i;
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const skipped = skipAtom(text, j);
    if (skipped > j) {
      j = skipped - 1;
      continue;
    }
    if (text[j] === '<') depth++;
    else if (text[j] === '>' && text[j - 1] !== '-') {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return i;
}

export function skipSpace(text: string, i: number): number {
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    const skipped = text[i] === '/' && (text[i + 1] === '/' || text[i + 1] === '*') ? skipAtom(text, i) : i;
    if (skipped === i) return i;
    i = skipped;
  }
}

/** An argument whose evaluation has no effect to reorder or drop: a literal, a path, a field, a reference to one. */
export function isPlainArgument(arg: string): boolean {
  const a = arg.trim();
  return (
    /^[&*\s]*(mut\s+)?[\p{XID_Start}_][\p{XID_Continue}]*(\s*(\.|::)\s*[\p{XID_Continue}]+)*$/u.test(a) ||
    /^-?\d[\w.]*$/.test(a) ||
    /^b?"([^"\\]|\\.)*"$/s.test(a) ||
    /^b?'(\\.|[^\\'])'$/.test(a)
  );
}
