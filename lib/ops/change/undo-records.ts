// Undo tokens and what tug remembers about each: the token names a ref, the record says how the result was used.
import path from 'node:path';
import { TugError } from '../../core/errors.js';
import { readJson, writeJson } from '../../session/files.js';
import type { Session } from '../../session/session.js';

export interface UndoRecord {
  token: string;
  commit: string;
  base: string;
  branch: string;
  operation: string;
  /** branch: only a branch was made; apply: files written; commit: the current branch was moved too. */
  mode: 'branch' | 'apply' | 'commit';
  ref_move?: { ref: string; from: string; to: string };
  /** An `onto` change moved this tug/ branch from its parent to the result; undo moves it back while it is still there. */
  branch_move?: { ref: string; from: string; to: string };
  created_at: string;
}

/** An undo token is this and the result commit's first UNDO_TOKEN_ID_CHARS hex digits; its ref is under UNDO_REFS. */
export const UNDO_TOKEN_PREFIX = 'undo_';
export const UNDO_TOKEN_ID_CHARS = 16;
export const UNDO_REFS = 'refs/tug/undo/';

/** Derived from the result commit, so the same change on the same snapshot always has the same token. */
export function undoTokenFor(commit: string): string {
  return `${UNDO_TOKEN_PREFIX}${commit.slice(0, UNDO_TOKEN_ID_CHARS)}`;
}

export function isUndoToken(token: string): boolean {
  return /^undo_[0-9a-f]{16}$/.test(token);
}

export async function saveUndoRecord(session: Session, record: UndoRecord): Promise<void> {
  await writeJson(path.join(session.paths.undo, `${record.token}.json`), record);
}

export async function loadUndoRecord(session: Session, token: string): Promise<UndoRecord | undefined> {
  if (!isUndoToken(token)) {
    throw new TugError('InvalidArgument', `${JSON.stringify(token)} is not an undo token (undo_ followed by 16 hex digits)`, {
      details: { argument: 'token', reason: 'malformed token' },
    });
  }
  return readJson<UndoRecord>(path.join(session.paths.undo, `${token}.json`));
}
