// Doctest examples (`>>> ` and `... ` lines) in source and docs files, as one Python text per file with an offset map back.

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
    let end = source.indexOf(10, start);
    if (end === -1) end = source.length;
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

/** Whether the config turns on doctests of modules (`--doctest-modules`). */
export function doctestModules(configs: readonly string[]): boolean {
  return configs.some((text) => text.includes('--doctest-modules'));
}
