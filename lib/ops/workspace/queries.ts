// Read-only views that MCP resources (and later the TUI) show: the snapshot's files and the last committed change.
import path from 'node:path';
import { SCHEMA_VERSION } from '../../core/schemas.js';
import { listTree } from '../../git/snapshot.js';
import { readJson } from '../../session/files.js';
import { takeSnapshot } from './snapshot.js';
import { withWorkspace } from './workspace.js';

export const LAST_RESULT_FILE = 'last-result.json';

export async function listSnapshotFiles(workspace: string) {
  return withWorkspace({ workspace }, { lock: false }, async (ws) => {
    const snapshot = await takeSnapshot(ws);
    const entries = await listTree(ws.repo, snapshot.tree);
    return {
      status: 'ok',
      schema_version: SCHEMA_VERSION,
      snapshot_id: snapshot.tree,
      files: entries.filter((e) => e.type === 'blob').map((e) => ({ path: e.path, size: e.size, mode: e.mode })),
    };
  });
}

export async function lastResult(workspace: string) {
  return withWorkspace({ workspace }, { lock: false }, async (ws) => {
    const last = await readJson<Record<string, unknown>>(path.join(ws.session.dir, LAST_RESULT_FILE));
    return last ?? { status: 'ok', schema_version: SCHEMA_VERSION, last: null };
  });
}

/** `workspace://symbols?file=…`: Python definitions with the ids analyze-impact uses. */
export async function symbolsQuery(workspace: string, file: string | undefined) {
  return withWorkspace({ workspace }, { lock: false }, async (ws) => {
    const snapshot = await takeSnapshot(ws);
    const { listSymbols } = await import('../../python/symbols.js');
    const { resolveUserPath } = await import('../../workspace/paths.js');
    const { configFor, configuredPython } = await import('./config.js');
    const relative = file === undefined ? undefined : await resolveUserPath(ws.repo, file, 'file');
    const symbols = await listSymbols(ws.repo, ws.session, snapshot.tree, relative, configuredPython(await configFor(ws.repo, {})));
    return { status: 'ok', schema_version: SCHEMA_VERSION, snapshot_id: snapshot.tree, symbols };
  });
}

/** `workspace://references?symbol_id=…`: every occurrence of a symbol, ordered by file and offset. */
export async function referencesQuery(workspace: string, symbolId: string) {
  return withWorkspace({ workspace }, { lock: false }, async (ws) => {
    const snapshot = await takeSnapshot(ws);
    const { referencesOf } = await import('../../python/symbols.js');
    const { configFor, configuredPython } = await import('./config.js');
    const references = await referencesOf(ws.repo, ws.session, snapshot.tree, symbolId, configuredPython(await configFor(ws.repo, {})));
    return { status: 'ok', schema_version: SCHEMA_VERSION, snapshot_id: snapshot.tree, symbol_id: symbolId, references };
  });
}

/** `workspace://log`: the operation log, newest first (the review TUI reads the same). */
export async function operationLog(workspace: string) {
  return withWorkspace({ workspace }, { lock: false }, async (ws) => {
    const { readLog } = await import('../change/op-log.js');
    const entries = (await readLog(ws.session)).reverse();
    return { status: 'ok', schema_version: SCHEMA_VERSION, entries, total: entries.length };
  });
}

/** `workspace://log/{id}`: one entry by id or unique prefix. */
export async function operationLogEntry(workspace: string, id: string) {
  return withWorkspace({ workspace }, { lock: false }, async (ws) => {
    const { findLogEntry, readLog } = await import('../change/op-log.js');
    return { status: 'ok', schema_version: SCHEMA_VERSION, entry: findLogEntry(await readLog(ws.session), id) };
  });
}
