// What `session status` reports and `clean` removes, read from the session dir, git's worktree list and refs.
import { resolveCommit } from '../../git/history.js';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { TugError } from '../../core/errors.js';
import { forgetRecent } from '../../core/memory.js';
import { SCHEMA_VERSION } from '../../core/schemas.js';
import { deleteRefs, listRefs } from '../../git/refs.js';
import { git } from '../../git/run-git.js';
import { listSandboxes, removeAllSandboxes } from '../../git/worktree.js';
import { directorySize, removeDir } from '../../session/session.js';
import { resolvePython } from '../../python/interpreter.js';
import { discardInterruptedApply, recoverInterruptedApply } from '../../workspace/recover.js';
import type { CommonInput, Workspace } from '../workspace/workspace.js';
import { withWorkspace } from '../workspace/workspace.js';
import { ownerAlive } from '../../session/owner.js';

/** Status reads only: where the session dir cannot be written (a read-only mount) it still answers. */
export async function sessionStatus(input: CommonInput) {
  try {
    return await sessionStatusWith(input, false);
  } catch (error) {
    if (!(error instanceof TugError && error.code === 'SessionNotWritable')) throw error;
    return sessionStatusWith(input, true);
  }
}

async function sessionStatusWith(input: CommonInput, readOnly: boolean) {
  return withWorkspace(input, { lock: false, readOnlySession: readOnly }, async (ws) => {
    const lockPid = await readFile(path.join(ws.session.dir, 'lock'), 'utf8').then((t) => (JSON.parse(t) as { pid: number }).pid, () => null);
    const python = await resolvePython(undefined, ws.session.dir).catch(() => null);
    const facts = await directorySize(ws.session.paths.facts);
    const snapshots = await readdir(ws.session.paths.snapshots).catch(() => []);
    const worktrees = await listSandboxes(ws.session.dir);
    return {
      status: 'ok',
      schema_version: SCHEMA_VERSION,
      session: { path: ws.session.dir, created_at: ws.session.meta.created_at, last_accessed: ws.session.meta.last_accessed, workspace_root: ws.repo.root },
      lock: { held: lockPid !== null, pid: lockPid },
      python: { interpreter: python?.path ?? null, source: python?.source ?? null },
      workers: await workers(ws),
      sandboxes: worktrees,
      undo_tokens: (await listRefs(ws.repo, 'refs/tug/undo/')).length,
      interrupted_apply: await readFile(ws.session.paths.journal).then(() => true, () => false),
      cache: { snapshots: snapshots.length, facts_files: facts.files, facts_bytes: facts.bytes },
      stale_branches: await staleBranches(ws),
    };
  });
}

async function workers(ws: Workspace) {
  const names = (await readdir(ws.session.paths.workers).catch(() => [])).filter((n) => n.endsWith('.pid')).sort();
  const out: Array<{ name: string; pid: number; running: boolean }> = [];
  for (const name of names) {
    const pid = Number((await readFile(path.join(ws.session.paths.workers, name), 'utf8').catch(() => '')).trim());
    if (!Number.isInteger(pid) || pid <= 0) continue;
    out.push({ name: name.replace(/\.pid$/, ''), pid, running: ownerAlive({ pid: pid }) });
  }
  return out;
}


type CleanInput = CommonInput & { workers?: boolean | undefined; cache?: boolean | undefined; sandboxes?: boolean | undefined; undo?: boolean | undefined };

/** clean works even where the session dir cannot be written: it then cleans what lives elsewhere and lists what it skipped. */
export async function clean(input: CleanInput) {
  try {
    return await cleanWith(input, false);
  } catch (error) {
    if (!(error instanceof TugError && error.code === 'SessionNotWritable')) throw error;
    return cleanWith(input, true);
  }
}

async function cleanWith(input: CleanInput, readOnly: boolean) {
  const all = !input.workers && !input.cache && !input.sandboxes;
  return withWorkspace(input, { lock: !readOnly, recover: false, readOnlySession: readOnly }, async (ws) => {
    const skipped: Array<{ path: string; reason: string }> = [];
    const attempt = async <T>(where: string, fallback: T, step: () => Promise<T>): Promise<T> => {
      try {
        return await step();
      } catch (error) {
        skipped.push({ path: where, reason: (error as NodeJS.ErrnoException).code ?? String(error) });
        return fallback;
      }
    };
    const removed = {
      workers: [] as string[],
      cache: false,
      sandboxes: [] as string[],
      snapshot_refs: 0,
      undo_points: 0,
      interrupted_apply: readOnly ? null : await settleInterruptedApply(ws),
    };
    if (all || input.workers) {
      for (const worker of await workers(ws)) {
        if (worker.running) {
          try {
            process.kill(worker.pid, 'SIGTERM');
          } catch {
            // Exited meanwhile.
          }
        }
        const pidFile = path.join(ws.session.paths.workers, `${worker.name}.pid`);
        await attempt(pidFile, undefined, () => rm(pidFile, { force: true }));
        removed.workers.push(worker.name);
      }
    }
    if (all || input.cache) {
      const facts = await attempt(ws.session.paths.facts, false, () => removeDir(ws.session.paths.facts));
      const snaps = await attempt(ws.session.paths.snapshots, false, () => removeDir(ws.session.paths.snapshots));
      await attempt(ws.session.paths.scratch, false, () => removeDir(ws.session.paths.scratch));
      forgetRecent();
      removed.cache = facts || snaps;
    }
    if (all || input.sandboxes) removed.sandboxes = await removeAllSandboxes(ws.repo, ws.session.dir);
    if (input.undo) {
      // One transaction for all of them (an agent's session may hold hundreds): every ref goes, or none.
      const snapshots = await listRefs(ws.repo, 'refs/tug/snapshots/');
      const undoPoints = await listRefs(ws.repo, 'refs/tug/undo/');
      await deleteRefs(ws.repo, [...snapshots, ...undoPoints]);
      removed.snapshot_refs += snapshots.length;
      removed.undo_points += undoPoints.length;
      await attempt(ws.session.paths.undo, false, () => removeDir(ws.session.paths.undo));
    }
    return { status: 'ok', schema_version: SCHEMA_VERSION, removed: { ...removed, ...(skipped.length > 0 ? { skipped } : {}) } };
  });
}

/**
 * clean always works: an interrupted apply is finished when that is safe; when it is not (the user's edits, a git lock,
 * an unreadable journal) it is dropped, its journal and tug's intended content kept under the returned directory.
 */
async function settleInterruptedApply(ws: Workspace): Promise<string | null> {
  try {
    await recoverInterruptedApply(ws.repo, ws.session);
    return null;
  } catch (error) {
    if (!(error instanceof TugError)) throw error;
    return discardInterruptedApply(ws.repo, ws.session);
  }
}

/** A tug/ branch is stale when HEAD moved on from where it was made: HEAD is not in it, and it is not in HEAD (merged). */
async function staleBranches(ws: Workspace): Promise<string[]> {
  const head = await resolveCommit(ws.repo, 'HEAD');
  if (!head) return [];
  // Three git processes whatever the number of branches (an agent may leave hundreds), not two per branch.
  const [all, ahead, merged] = await Promise.all([
    listRefs(ws.repo, 'refs/heads/tug/'),
    listRefs(ws.repo, 'refs/heads/tug/', { contains: head }),
    listRefs(ws.repo, 'refs/heads/tug/', { merged: head }),
  ]);
  const related = new Set([...ahead, ...merged].map((r) => r.ref));
  return all.filter((r) => !related.has(r.ref)).map((r) => r.ref.slice('refs/heads/'.length)).sort();
}
