// The daemon's limits, from the `[daemon]` table of the user's config.toml: memory budget, rust-analyzers, idle times.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { TugError } from '../core/errors.js';
import { userConfigFile } from '../ops/workspace/config.js';

const DaemonTable = z
  .object({
    /** Resident memory of the daemon and its Python workers together, measured (VmRSS), in MB. */
    memory_mb: z.number().int().min(50).max(65_536),
    /** Warm rust-analyzers kept at once (each counted apart from the budget); the least recently used goes first. */
    rust_analyzers: z.number().int().min(0).max(16),
    /** Warm TypeScript projects (language services inside the daemon, within the memory budget) kept at once. */
    typescript_projects: z.number().int().min(0).max(16),
    /** A repository unused this long loses its workers and rust-analyzers. */
    repository_idle_minutes: z.number().positive().max(1440),
    /** The daemon exits after this long without a request. */
    idle_minutes: z.number().positive().max(1440),
  })
  .partial()
  .strict();

export interface DaemonSettings {
  memoryBytes: number;
  rustAnalyzers: number;
  typescriptProjects: number;
  repositoryIdleMs: number;
  idleMs: number;
}

export const DEFAULT_DAEMON_SETTINGS: DaemonSettings = { memoryBytes: 300 * 2 ** 20, rustAnalyzers: 2, typescriptProjects: 2, repositoryIdleMs: 10 * 60_000, idleMs: 30 * 60_000 };

/**
 * The settings the daemon starts with (read once: `tug daemon stop` makes the next start read them again); an invalid
 * table is an error naming the key, as for any config. `TUG_DAEMON_IDLE_SECONDS` overrides `idle_minutes`.
 */
export async function daemonSettings(env: NodeJS.ProcessEnv = process.env): Promise<DaemonSettings> {
  const file = userConfigFile();
  let table: unknown = {};
  try {
    const { parse } = await import('smol-toml');
    table = (parse(readFileSync(file, 'utf8')) as Record<string, unknown>)['daemon'] ?? {};
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new TugError('InvalidArgument', `user config ${file} is not valid TOML`, { details: { argument: file, reason: 'invalid TOML' } });
    }
  }
  const parsed = DaemonTable.safeParse(table);
  if (!parsed.success) {
    const reason = parsed.error.issues.map((i) => `daemon.${i.path.join('.') || ('keys' in i ? (i.keys as string[]).join(', ') : '')}: ${i.message}`).join('; ');
    throw new TugError('InvalidArgument', `invalid configuration: user config ${file} ${reason}`, { details: { argument: file, reason } });
  }
  const d = parsed.data;
  const fromEnv = Number(env['TUG_DAEMON_IDLE_SECONDS']);
  const defaults = DEFAULT_DAEMON_SETTINGS;
  return {
    memoryBytes: d.memory_mb === undefined ? defaults.memoryBytes : d.memory_mb * 2 ** 20,
    rustAnalyzers: d.rust_analyzers ?? defaults.rustAnalyzers,
    typescriptProjects: d.typescript_projects ?? defaults.typescriptProjects,
    repositoryIdleMs: d.repository_idle_minutes === undefined ? defaults.repositoryIdleMs : d.repository_idle_minutes * 60_000,
    idleMs: fromEnv > 0 ? fromEnv * 1000 : d.idle_minutes === undefined ? defaults.idleMs : d.idle_minutes * 60_000,
  };
}
