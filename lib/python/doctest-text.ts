// Doctest examples (`>>> ` and `... ` lines) in source and docs files, as one Python text per file with an offset map back.
import { matchesGlob } from '../core/glob.js';

export interface DoctestLine {
  /** Where the line's code starts in the virtual text, and in the real file. */
  virtual: number;
  real: number;
  length: number;
}

export interface DoctestText {
  file: string;
  /** Code of every example, one line per example line, after `prefix`. */
  text: string;
  /** Bytes at the start of `text` that are tug's, not the file's (names the examples see as globals). */
  prefixLength: number;
  lines: DoctestLine[];
}

const PROMPT = /^([ \t]*)(>>>|\.\.\.)( |$)/;

/** The examples of one file; null when it has none. `prefix` is prepended (a docstring's module globals). */
export function doctestText(file: string, bytes: Uint8Array, prefix = ''): DoctestText | null {
  const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!source.includes('>>>')) return null;
  const prefixBytes = Buffer.from(prefix, 'utf8');
  const parts: Buffer[] = [prefixBytes];
  const lines: DoctestLine[] = [];
  let virtual = prefixBytes.length;
  let inExample = false;
  let start = 0;
  while (start < source.length) {
    // Only a `>>>` line starts an example, so outside one the scan goes straight to the next line holding `>>>`, and
    // only a line that starts with a prompt is decoded: decoding every line of every module that mentions the name was
    // most of a cold rename's doctest search (issue 33 step 21).
    if (!inExample) {
      const next = source.indexOf('>>>', start);
      if (next === -1) break;
      start = source.lastIndexOf(10, next) + 1;
    }
    let end = source.indexOf(10, start);
    if (end === -1) end = source.length;
    const prompt = promptAt(source, start, end);
    if (prompt === null || (prompt === DOTS && !inExample)) {
      inExample = false;
      start = end + 1;
      continue;
    }
    const line = source.subarray(start, end).toString('utf8').replace(/\r$/, '');
    const match = PROMPT.exec(line);
    if (match && (match[2] === '>>>' || inExample)) {
      const codeStart = Buffer.byteLength(match[0]);
      const code = Buffer.from(line.slice(match[0].length), 'utf8');
      lines.push({ virtual, real: start + codeStart, length: code.length });
      parts.push(code, Buffer.from('\n'));
      virtual += code.length + 1;
      inExample = true;
    } else {
      inExample = false;
    }
    start = end + 1;
  }
  if (lines.length === 0) return null;
  return { file, text: Buffer.concat(parts).toString('utf8'), prefixLength: prefixBytes.length, lines };
}

const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;
const CHEVRONS = 0x3e;
const DOTS = 0x2e;

/**
 * What PROMPT finds on the line `source[start, end)` (its `\r` ending dropped), read from the bytes: `>` for `>>>`, `.` for
 * `...`, null for no prompt. What PROMPT matches is ASCII, so the bytes answer as the decoded line would.
 */
function promptAt(source: Buffer, start: number, end: number): number | null {
  const stop = end > start && source[end - 1] === CR ? end - 1 : end;
  let at = start;
  while (at < stop && (source[at] === SPACE || source[at] === TAB)) at++;
  const mark = source[at];
  if (at + 3 > stop || (mark !== CHEVRONS && mark !== DOTS) || source[at + 1] !== mark || source[at + 2] !== mark) return null;
  return at + 3 === stop || source[at + 3] === SPACE ? mark! : null;
}

/** A virtual offset → the real file's offset, or null inside tug's prefix. */
export function realOffset(doc: DoctestText, offset: number): number | null {
  if (offset < doc.prefixLength) return null;
  for (const line of doc.lines) if (offset >= line.virtual && offset <= line.virtual + line.length) return line.real + (offset - line.virtual);
  return null;
}

/** `--doctest-glob` patterns from a pytest config's addopts (pytest's default, `test*.txt`, without any). */
export function doctestGlobs(configs: readonly string[]): string[] {
  const globs: string[] = [];
  for (const text of configs) for (const m of text.matchAll(/--doctest-glob(?:=|\s+)["']?([^\s"',\]]+)/g)) globs.push(m[1]!);
  return globs.length > 0 ? [...new Set(globs)] : ['test*.txt'];
}

/**
 * Which paths the globs collect, as `matchesGlob` answers. A glob with one `*` and none of `?`, `[`, `{` (pytest's
 * default `test*.txt` and nearly every `--doctest-glob`) is a prefix and a suffix with no `/` between them, tested
 * without compiling RE2: the first compile and match cost ~10 ms of a cold rename that reads any .txt file (issue 33
 * step 19). Any other glob goes to `matchesGlob`.
 */
export function doctestCollector(globs: readonly string[]): (path: string) => boolean {
  const tests = globs.map((glob): ((path: string) => boolean) => {
    const plain = glob.replace(/^\.\//, '');
    const star = plain.indexOf('*');
    if (star < 0 || plain.includes('*', star + 1) || /[?[{]/.test(plain)) return (path) => matchesGlob(path, glob);
    const prefix = plain.slice(0, star);
    const suffix = plain.slice(star + 1);
    const whole = glob.includes('/');
    return (path) => {
      const target = whole ? path : path.slice(path.lastIndexOf('/') + 1);
      return target.length >= prefix.length + suffix.length && target.startsWith(prefix) && target.endsWith(suffix) && !target.slice(prefix.length, target.length - suffix.length).includes('/');
    };
  });
  return (path) => tests.some((test) => test(path));
}

/** Whether the config turns on doctests of modules (`--doctest-modules`). */
export function doctestModules(configs: readonly string[]): boolean {
  return configs.some((text) => text.includes('--doctest-modules'));
}

const FENCE_OPEN = /^([ \t]*)(```|~~~)[ \t]*(python|py|python3)[ \t]*$/;
const RST_DIRECTIVE = /^([ \t]*)\.\. (code-block|code|sourcecode):: *(python|py|python3) *$/;

/**
 * Python code blocks of a Markdown (```python fences) or reStructuredText (`.. code-block:: python`) file, dedented, as
 * one text; blocks holding `>>>` prompts are doctests, not code, and are left to doctestText.
 */
export function codeBlockText(file: string, bytes: Uint8Array): DoctestText | null {
  const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const rows: Array<{ start: number; text: string }> = [];
  for (let start = 0; start < source.length; ) {
    let end = source.indexOf(10, start);
    if (end === -1) end = source.length;
    rows.push({ start, text: source.subarray(start, end).toString('utf8').replace(/\r$/, '') });
    start = end + 1;
  }
  const blocks: Array<typeof rows> = [];
  for (let i = 0; i < rows.length; i++) {
    const fence = FENCE_OPEN.exec(rows[i]!.text);
    if (fence) {
      const block: typeof rows = [];
      for (i++; i < rows.length && !rows[i]!.text.trimStart().startsWith(fence[2]!); i++) block.push(rows[i]!);
      blocks.push(block);
      continue;
    }
    const directive = RST_DIRECTIVE.exec(rows[i]!.text);
    if (!directive) continue;
    const block: typeof rows = [];
    const inside = (text: string) => text.trim() === '' || (/^[ \t]/.test(text) && /^[ \t]*/.exec(text)![0].length > directive[1]!.length);
    for (i++; i < rows.length && inside(rows[i]!.text); i++) {
      // Directive options (`:linenos:`) come before the code.
      if (block.every((r) => r.text.trim() === '') && rows[i]!.text.trimStart().startsWith(':')) continue;
      block.push(rows[i]!);
    }
    i--;
    blocks.push(block);
  }
  const parts: Buffer[] = [];
  const lines: DoctestLine[] = [];
  let virtual = 0;
  for (const block of blocks) {
    if (block.some((r) => PROMPT.test(r.text))) continue;
    const indents = block.filter((r) => r.text.trim() !== '').map((r) => /^[ \t]*/.exec(r.text)![0].length);
    const indent = indents.length > 0 ? Math.min(...indents) : 0;
    for (const row of block) {
      const code = Buffer.from(row.text.trim() === '' ? '' : row.text.slice(indent), 'utf8');
      lines.push({ virtual, real: row.start + (row.text.trim() === '' ? 0 : Buffer.byteLength(row.text.slice(0, indent))), length: code.length });
      parts.push(code, Buffer.from('\n'));
      virtual += code.length + 1;
    }
  }
  if (lines.length === 0) return null;
  return { file, text: Buffer.concat(parts).toString('utf8'), prefixLength: 0, lines };
}
