// Where the cursor goes next in a result: change by change or hunk by hunk, across files, like `git add -p`.
import type { ReviewResult } from '../lib/review/types.js';

/** A cursor position: (file index, change group index). */
export type Position = [number, number];

/** (file, group) pairs in display order: the stops of j/k in the diff pane. */
function stops(result: ReviewResult): Array<[number, number]> {
  return result.files.flatMap((f, i) => f.diff.groups.map((_, g): [number, number] => [i, g]));
}

export function neighbourGroup(result: ReviewResult, file: number, group: number, delta: number): Position | null {
  const all = stops(result);
  const at = all.findIndex(([f, g]) => f === file && g === group);
  if (at === -1) return all.find(([f]) => (delta > 0 ? f > file : f < file)) ?? null;
  return all[at + delta] ?? null;
}

function hunkOf(result: ReviewResult, file: number, group: number): number {
  return result.files[file]?.diff.hunks.findIndex((h) => h.groups.includes(group)) ?? -1;
}

/** The first group of the next or previous hunk, across files (like `git add -p`). */
export function neighbourHunk(result: ReviewResult, file: number, group: number, delta: number): Position | null {
  const starts = result.files.flatMap((f, i) => f.diff.hunks.filter((h) => h.groups.length > 0).map((h): [number, number] => [i, h.groups[0]!]));
  const current = hunkOf(result, file, group);
  const currentStart = current >= 0 ? result.files[file]!.diff.hunks[current]!.groups[0]! : -1;
  const at = starts.findIndex(([f, g]) => f === file && g === currentStart);
  if (at === -1) return neighbourGroup(result, file, group, delta);
  return starts[at + delta] ?? null;
}

export function firstGroupFile(result: ReviewResult): number {
  const index = result.files.findIndex((f) => f.diff.groups.length > 0);
  return index === -1 ? 0 : index;
}

export function clamp(value: number, length: number): number {
  return Math.max(0, Math.min(length - 1, value));
}

