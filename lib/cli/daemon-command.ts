// `tug daemon start|status|stop|run`: a resident tug per repository, so CLI calls skip Node start-up and module loading.
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { TugError } from '../core/errors.js';
import { SCHEMA_VERSION } from '../core/schemas.js';
import { launchDaemon } from '../daemon/launch.js';
import { controlDaemon, serveDaemon } from '../daemon/server.js';
import type { AnalysisTarget, CliIO } from './io.js';

export async function daemonCommand(
  action: string,
  workspace: string,
  sessionDir: string | undefined,
  run: (argv: readonly string[], io: CliIO) => Promise<number>,
  options: { idleSeconds?: number | undefined; warmUp?: string | undefined } = {},
): Promise<Record<string, unknown>> {
  const { discoverRepo } = await import('../git/repo.js');
  const repo = await discoverRepo(workspace);
  const commonDir = await realpath(repo.commonDir);
  const envelope = (daemon: Record<string, unknown>) => ({ status: 'ok', schema_version: SCHEMA_VERSION, daemon });
  if (action === 'status') {
    const reply = await controlDaemon(commonDir, 'status');
    return envelope(reply ? { running: true, ...(reply['status'] as object) } : { running: false });
  }
  if (action === 'stop') {
    const reply = await controlDaemon(commonDir, 'stop');
    return envelope({ running: false, stopped: reply !== null });
  }
  const idle = options.idleSeconds ?? Number(process.env['TUG_DAEMON_IDLE_SECONDS'] ?? 1800);
  if (!Number.isFinite(idle) || idle <= 0) throw new TugError('InvalidArgument', 'the idle time must be a positive number of seconds', { details: { idle_seconds: idle } });
  if (action === 'start') {
    const existing = await controlDaemon(commonDir, 'status');
    if (existing) return envelope({ running: true, already_running: true, ...(existing['status'] as object) });
    const started = await launchDaemon(commonDir, repo.root, idle);
    if (!started) throw new TugError('InternalError', 'the daemon did not come up within 10 s', { details: { workspace: repo.root } });
    return envelope({ running: true, already_running: false, ...(started['status'] as object) });
  }
  const session = sessionDir ?? (process.env['TUG_SESSION_DIR'] ? path.resolve(repo.root, process.env['TUG_SESSION_DIR']) : path.join(repo.commonDir, 'tug'));
  await serveDaemon({
    commonDir,
    pidFile: path.join(session, 'workers', 'daemon.pid'),
    idleMs: idle * 1000,
    run,
    ...(options.warmUp === undefined ? {} : { warmUp: () => warmUp(workspace, options.warmUp!) }),
  });
  await new Promise(() => undefined);
  return envelope({ running: false });
}

/**
 * Analyses the rename target of the command that started the daemon, output discarded: the project (Python facts,
 * an indexed rust-analyzer) is then loaded before the next call arrives. Read-only; any failure is ignored.
 */
async function warmUp(workspace: string, targetJson: string): Promise<void> {
  try {
    const target = JSON.parse(targetJson) as AnalysisTarget;
    const { findOperation } = await import('../ops/registry.js');
    const analyse = findOperation('analyze-impact')!;
    await analyse.execute(analyse.input.parse({ ...target, workspace, operation: 'rename-symbol' }), {});
  } catch {
    // A target that no longer resolves warms nothing; the next real call reports its own errors.
  }
}
