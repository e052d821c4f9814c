// The TypeScript view of one snapshot as the operations see it: its files, the compiler chosen (the project's own, else tug's) and the projects over them; opened through warm.ts, which keeps it between calls.
import { TugError } from '../core/errors.js';
import type { Repo } from '../git/repo.js';
import { isScriptFile } from './files.js';
import { warmWorkspace } from './warm.js';
import type { TsWorkspace } from './workspace-build.js';

export type { TsWorkspace } from './workspace-build.js';

/**
 * The workspace of `tree`. A long-lived process gets the one it kept for the repository, brought up to `tree`; use it
 * without awaiting anything in between (every plan does), as the next call may move it to its own snapshot.
 */
export function openTsWorkspace(repo: Repo, tree: string, near: string): Promise<TsWorkspace> {
  return warmWorkspace(repo, tree, near);
}

/** The file a TypeScript operation was pointed at must be a script of the snapshot. */
export function requireScript(ws: TsWorkspace, file: string): Uint8Array {
  const data = ws.bytes.get(file);
  if (!data || !isScriptFile(file)) throw new TugError('FileNotFound', `${file} is not a TypeScript or JavaScript file of the workspace`, { details: { path: file } });
  return data;
}
