// Byte-exact text helpers: tug addresses files by UTF-8 byte offsets, so positions and decoding live in one place.

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

export type TextCheck = { ok: true; text: string } | { ok: false; reason: 'binary' | 'non-utf8' };

/** Decides whether bytes are editable text: no NUL in the first 8 KiB (git's heuristic) and valid UTF-8. */
export function decodeText(bytes: Uint8Array): TextCheck {
  const probe = bytes.subarray(0, 8000);
  if (probe.includes(0)) return { ok: false, reason: 'binary' };
  try {
    return { ok: true, text: decoder.decode(bytes) };
  } catch {
    return { ok: false, reason: 'non-utf8' };
  }
}

export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Byte offset at which each line starts; line N (1-based) starts at result[N-1]. */
export function lineStarts(bytes: Uint8Array): number[] {
  const starts = [0];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) starts.push(i + 1);
  return starts;
}

/** 1-based line and byte column for a byte offset. */
export function positionOf(starts: number[], offset: number): { line: number; col: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, col: offset - (starts[lo] ?? 0) + 1 };
}

/**
 * Byte offset of a 1-based line and byte column, or null when out of range.
 * A column may point one past the last byte of a line (an insertion point before its newline).
 */
export function offsetOf(bytes: Uint8Array, starts: number[], line: number, col: number): number | null {
  if (!Number.isInteger(line) || !Number.isInteger(col) || line < 1 || col < 1) return null;
  const start = starts[line - 1];
  if (start === undefined) return null;
  const next = starts[line];
  let lineEnd = next === undefined ? bytes.length : next - 1;
  if (lineEnd > start && bytes[lineEnd - 1] === 0x0d) lineEnd -= 1;
  const offset = start + col - 1;
  return offset <= lineEnd ? offset : null;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}
