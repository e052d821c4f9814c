// LSP positions count lines and UTF-16 code units (or bytes, when negotiated); tug counts UTF-8 bytes. This converts between them.
import { lineStarts } from '../core/text.js';

export type PositionEncoding = 'utf-16' | 'utf-8';

export interface LspPosition {
  line: number;
  character: number;
}

const decoder = new TextDecoder();

/** The text of a line without its terminator, and the byte offset where it starts. */
function lineAt(bytes: Uint8Array, starts: number[], line: number): { start: number; text: string } | null {
  const start = starts[line];
  if (start === undefined) return null;
  const next = starts[line + 1];
  let end = next === undefined ? bytes.length : next - 1;
  if (end > start && bytes[end - 1] === 0x0d) end -= 1;
  return { start, text: decoder.decode(bytes.subarray(start, end)) };
}

/**
 * Byte offset of an LSP position. A character past the end of its line means the end of the line (the
 * protocol's rule); a line past the end of the file means the end of the file.
 */
export function offsetOfLspPosition(bytes: Uint8Array, position: LspPosition, encoding: PositionEncoding, starts = lineStarts(bytes)): number {
  const line = lineAt(bytes, starts, position.line);
  if (!line) return bytes.length;
  if (encoding === 'utf-8') return line.start + Math.min(position.character, Buffer.byteLength(line.text));
  let units = 0;
  let offset = line.start;
  for (const char of line.text) {
    if (units >= position.character) break;
    units += char.length;
    offset += Buffer.byteLength(char);
  }
  return offset;
}

/** LSP position of a byte offset (which must fall on a character boundary). */
export function lspPositionOfOffset(bytes: Uint8Array, offset: number, encoding: PositionEncoding, starts = lineStarts(bytes)): LspPosition {
  let line = 0;
  while (line + 1 < starts.length && starts[line + 1]! <= offset) line += 1;
  const start = starts[line]!;
  const prefix = decoder.decode(bytes.subarray(start, offset));
  return { line, character: encoding === 'utf-8' ? offset - start : prefix.length };
}
