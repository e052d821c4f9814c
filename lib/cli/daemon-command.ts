// `tug daemon start|status|stop|run`: the user's resident tug, so CLI calls in any repository skip start-up and loading.
import { TugError } from '../core/errors.js';
import { SCHEMA_VERSION } from '../core/schemas.js';
import { controlDaemon } from '../daemon/client.js';
import { launchDaemon } from '../daemon/launch.js';
import { serveDaemon } from '../daemon/server.js';
import { daemonSettings } from '../daemon/settings.js';
import type { AnalysisTarget, CliIO } from './io.js';

export async function daemonCommand(
  action: string,
  run: (argv: readonly string[], io: CliIO) => Promise<number>,
  options: { idleSeconds?: number | undefined; warmUp?: string | undefined } = {},
): Promise<Record<string, unknown>> {
  const envelope = (daemon: Record<string, unknown>) => ({ status: 'ok', schema_version: SCHEMA_VERSION, daemon });
  if (action === 'status') {
    const reply = await controlDaemon('status');
    return envelope(reply ? { running: true, ...(reply['status'] as object) } : { running: false });
  }
  if (action === 'stop') {
    const reply = await controlDaemon('stop');
    if (reply) await stopped();
    return envelope({ running: false, stopped: reply !== null });
  }
  const settings = await daemonSettings();
  const idle = options.idleSeconds;
  if (idle !== undefined && (!Number.isFinite(idle) || idle <= 0)) {
    throw new TugError('InvalidArgument', 'the idle time must be a positive number of seconds', { details: { idle_seconds: idle } });
  }
  if (action === 'start') {
    const existing = await controlDaemon('status');
    if (existing) return envelope({ running: true, already_running: true, ...(existing['status'] as object) });
    const started = await launchDaemon(idle === undefined ? [] : ['--idle-seconds', String(idle)]);
    if (!started) throw new TugError('InternalError', 'the daemon did not come up within 10 s', { details: {} });
    return envelope({ running: true, already_running: false, ...(started['status'] as object) });
  }
  await serveDaemon({
    settings: idle === undefined ? settings : { ...settings, idleMs: idle * 1000 },
    run,
    ...(options.warmUp === undefined ? {} : { warmUp: () => warmUp(options.warmUp!) }),
  });
  await new Promise(() => undefined);
  return envelope({ running: false });
}

/** `stop` returns once the daemon no longer answers, so its helpers are gone when the command ends. */
async function stopped(): Promise<void> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
    if (!(await controlDaemon('status'))) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Analyses the rename target of the command that started the daemon (with its workspace), output discarded: the
 * project (Python facts, an indexed rust-analyzer) is then loaded before the next call arrives. Failures are ignored.
 */
async function warmUp(targetJson: string): Promise<void> {
  try {
    const target = JSON.parse(targetJson) as AnalysisTarget & { workspace: string };
    const { findOperation } = await import('../ops/registry.js');
    const analyse = findOperation('analyze-impact')!;
    const { positionFromAt } = await import('../ops/operation.js');
    const { at, to, ...rest } = target;
    await analyse.execute(analyse.input.parse({ ...rest, ...positionFromAt(at), new_name: to, operation: 'rename_symbol' }), {});
  } catch {
    // A target that no longer resolves warms nothing; the next real call reports its own errors.
  }
}
