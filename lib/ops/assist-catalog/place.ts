// The place an assist is asked for, as the Rust adapter takes it: a position, or a range when an end is given.
import type { z } from 'zod';
import { TugError } from '../../core/errors.js';
import type { SiteInput } from '../../rust/assists.js';
import { resolveUserPath } from '../../workspace/paths.js';
import { configFor, configuredRustAnalyzer } from '../workspace/config.js';
import { snapshotCommit, type Snapshot } from '../workspace/snapshot.js';
import type { Workspace } from '../workspace/workspace.js';
import type { placeFields } from './schema.js';

type Place = { [K in keyof typeof placeFields]?: z.infer<(typeof placeFields)[K]> } & { file: string; line: number; column: number; no_wait?: boolean | undefined };

export async function siteInput(ws: Workspace, snapshot: Snapshot, place: Place, operation: string): Promise<SiteInput> {
  const file = await resolveUserPath(ws.repo, place.file, 'file');
  if (!file.endsWith('.rs')) {
    throw new TugError('UnsupportedOperation', `${operation} serves rust-analyzer's assists in Rust files; ${file} is not one`, { details: { operation, reason: 'unsupported language' } });
  }
  const start = { line: place.line, col: place.column };
  const end = place.end_line !== undefined ? { line: place.end_line, col: place.end_column ?? 1 } : start;
  const config = await configFor(ws.repo, {});
  return {
    repo: ws.repo,
    session: ws.session,
    tree: snapshot.tree,
    commit: await snapshotCommit(ws, snapshot),
    file,
    start,
    end,
    rustAnalyzer: configuredRustAnalyzer(config, place.rust_analyzer),
    noWait: place.no_wait,
  };
}
