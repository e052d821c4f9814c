// The repository-controlled settings that need the user's trust: those that name a program, run the project's code or widen the environment.
import { createHash } from 'node:crypto';

/** Dotted keys of tug.toml / [tool.tug] that take effect only in a trusted repository. */
export const GATED_KEYS = ['python.python_path', 'rust.rust_analyzer_path', 'test_command', 'typecheck_command', 'run_command.allow_env', 'verify'] as const;

/** `verify` is gated only where it runs the project's code; `none` and `syntax` never do. */
const RUNS_CODE = (key: string, value: unknown) => key !== 'verify' || value === 'tests' || value === 'typecheck';

export interface GatedSetting {
  source: string;
  key: string;
  value: unknown;
}

function get(layer: Record<string, unknown>, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), layer);
}

/** The gated settings the repository's files hold, in a fixed order (file, then key). */
export function gatedSettings(layers: ReadonlyArray<readonly [string, Record<string, unknown>]>): GatedSetting[] {
  const out: GatedSetting[] = [];
  for (const [source, layer] of layers) {
    for (const key of GATED_KEYS) {
      const value = get(layer, key);
      if (value !== undefined && RUNS_CODE(key, value)) out.push({ source, key, value });
    }
  }
  return out;
}

/** What `tug trust` records: a change to any gated setting (or to where it is written) needs trust again. */
export function settingsHash(settings: readonly GatedSetting[]): string {
  return createHash('sha256').update(JSON.stringify(settings.map((s) => [s.source, s.key, s.value]))).digest('hex');
}

/** A copy of `layer` without the gated settings, for an untrusted repository. */
export function withoutGated<T extends Record<string, unknown>>(layer: T): T {
  const copy = structuredClone(layer) as Record<string, unknown>;
  for (const key of GATED_KEYS) {
    const parts = key.split('.');
    const parent = parts.length === 1 ? copy : (copy[parts[0]!] as Record<string, unknown> | undefined);
    const leaf = parts.at(-1)!;
    if (parent && typeof parent === 'object' && leaf in parent && RUNS_CODE(key, parent[leaf])) delete parent[leaf];
  }
  return copy as T;
}
