// A bare `tug snapshot` printing JSON starts without the CLI bundle: no yargs and no zod to load, which was most of its cold time next to git's.
import { createRequire } from 'node:module';
import type { CliIO } from './io.js';

type SnapshotModule = typeof import('../ops/snapshot/run.js');

/**
 * Only `tug snapshot` and `tug snapshot --json` when the output is JSON; any other flag, and a terminal's summary, take
 * the full CLI.
 */
export function isLeanSnapshot(argv: readonly string[], io: CliIO): boolean {
  const rest = argv.filter((a) => a !== '--json');
  return rest.length === 1 && rest[0] === 'snapshot' && argv.length - rest.length <= 1 && (argv.includes('--json') || !io.stdoutIsTTY);
}

/**
 * The JSON the full CLI would print, from the same code (lib/ops/snapshot/run.ts, which the snapshot operation runs
 * too), or null when anything failed: the full CLI then runs the command again and reports the error its usual way.
 * Nothing is lost by running twice: a snapshot takes no lock and changes nothing of the user's.
 */
export async function leanSnapshot(io: CliIO): Promise<string | null> {
  try {
    const { runSnapshot } = await snapshotModule();
    return `${JSON.stringify(await runSnapshot({ workspace: io.cwd }), null, 2)}\n`;
  } catch {
    return null;
  }
}

/** Its own bundle when the build made one (see scripts/bundle-cli.mjs), else the plain modules, by URL so no bundle holds them. */
function snapshotModule(): Promise<SnapshotModule> {
  try {
    return Promise.resolve(createRequire(import.meta.url)('../cli-bundle/snapshot.cjs') as SnapshotModule);
  } catch (error) {
    if ((error as { code?: string }).code !== 'MODULE_NOT_FOUND') throw error;
    return import(new URL('../ops/snapshot/run.js', import.meta.url).href) as Promise<SnapshotModule>;
  }
}
