// What `tug doctor` says about TypeScript: the compiler tug ships and the project's own, read from their package.json files without loading either.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { projectTypeScript } from './load.js';

export interface TypeScriptInfo {
  /** Version of the compiler tug depends on. */
  tug: string | null;
  /** The project's installed compiler (the nearest node_modules/typescript from the workspace up to the root), if any. */
  project: { version: string; dir: string } | null;
}

function versionAt(dir: string): string | null {
  try {
    return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

export function typescriptInfo(root: string | null, workspace: string): TypeScriptInfo {
  let tug: string | null = null;
  try {
    tug = versionAt(path.dirname(path.dirname(createRequire(import.meta.url).resolve('typescript'))));
  } catch {
    tug = null;
  }
  // Doctor runs no git: whether a copy is committed (and so not used) is the analysis's check, not this one.
  const own = root && existsSync(root) ? projectTypeScript(root, path.resolve(workspace), () => false) : null;
  return { tug, project: own ? { version: versionAt(own) ?? '?', dir: own } : null };
}
