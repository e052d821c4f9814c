// A position on whitespace between two names could mean either: refuse with both as candidates instead of guessing.
import { TugError } from '../core/errors.js';
import { lineStarts, positionOf } from '../core/text.js';
import { entityKey, type Entity } from './project.js';
import { nameOf, type Resolver } from './references.js';
import type { FileInfo } from './project.js';
import type { WarningJSON } from '../core/schemas.js';

const KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(' '),
);

const isBlank = (byte: number | undefined) => byte === 0x20 || byte === 0x09;
const isWordByte = (byte: number | undefined) => byte !== undefined && (byte === 0x5f || (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || byte >= 0x80);

/**
 * When `offset` is on blanks whose nearest names either side (past keywords, same line) are two symbols: throws
 * AmbiguousSymbol (safety_mode strict), or with `proceed` (normal, aggressive) returns the offset of the name before
 * the blanks and a warning naming both. Otherwise returns null.
 */
export function refuseAmbiguousPosition(
  resolver: Resolver,
  info: FileInfo,
  bytes: Uint8Array,
  offset: number,
  target: { file: string; line: number; col: number },
  proceed = false,
): { offset: number; warning: WarningJSON } | null {
  if (!isBlank(bytes[offset])) return null;
  const left = nearestName(bytes, offset, -1);
  const right = nearestName(bytes, offset, 1);
  if (left === null || right === null) return null;
  const found = [left, right].map((start) => ({ start, entity: resolver.entityAt(info, start) })).filter((c): c is { start: number; entity: Entity } => c.entity !== null);
  if (found.length < 2 || entityKey(resolver.normalize(found[0]!.entity)) === entityKey(resolver.normalize(found[1]!.entity))) return null;
  const starts = lineStarts(bytes);
  const candidates = found.map(({ start, entity }) => ({ name: nameOf(entity), kind: entity.kind, location: { file: target.file, ...positionOf(starts, start) } }));
  const where = `${target.file}:${target.line}:${target.col}`;
  if (proceed) {
    const [chosen, other] = candidates;
    return {
      offset: left,
      warning: {
        code: 'AmbiguousSymbol',
        message: `${where} is blank space between ${chosen!.name} and ${other!.name}; renamed ${chosen!.name}, the name before it (safety_mode strict refuses instead)`,
        location: chosen!.location,
        details: { candidates },
      },
    };
  }
  throw new TugError('AmbiguousSymbol', `${where} is blank space between ${candidates.map((c) => `${c.name} (${c.location.file}:${c.location.line}:${c.location.col})`).join(' and ')}; give the position of one of them`, {
    details: { candidates },
    location: target,
  });
}

/** Start offset of the nearest non-keyword word in `direction`, skipping blanks and keywords, within the line. */
function nearestName(bytes: Uint8Array, offset: number, direction: -1 | 1): number | null {
  let i = offset;
  for (;;) {
    while (isBlank(bytes[i])) i += direction;
    if (!isWordByte(bytes[i])) return null;
    let start = i;
    let end = i;
    while (isWordByte(bytes[start - 1])) start -= 1;
    while (isWordByte(bytes[end + 1])) end += 1;
    const word = Buffer.from(bytes.subarray(start, end + 1)).toString('utf8');
    if (!KEYWORDS.has(word)) return /^[0-9]/.test(word) ? null : start;
    i = direction < 0 ? start - 1 : end + 1;
  }
}
