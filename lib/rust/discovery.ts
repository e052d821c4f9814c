// Finds a rust-analyzer that really runs: a rustup proxy without the component is on PATH on many machines and only fails when called.
import { noteToolVersion } from '../core/tool-versions.js';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadExeca } from '../verify/execa.js';
import { TugError } from '../core/errors.js';

export interface RustAnalyzerInfo {
  found: boolean;
  path: string | null;
  source: string | null;
  version: string | null;
  /** Every candidate looked at, in order, with what happened. */
  searched: string[];
}

/** Where `bin/setup-rust-analyzer` (and `tug toolchain rust setup`) installs Debian's build. */
export const MANAGED_RUST_ANALYZER = fileURLToPath(new URL('../../../.toolchains/bin/rust-analyzer', import.meta.url));
export const SETUP_SCRIPT = fileURLToPath(new URL('../../../bin/setup-rust-analyzer', import.meta.url));

const cache = new Map<string, Promise<RustAnalyzerInfo>>();

/** Discovery order: --rust-analyzer, $TUG_RA_PATH, rust-analyzer on PATH, then the one tug's setup installed. */
export function discoverRustAnalyzer(explicit?: string): Promise<RustAnalyzerInfo> {
  const key = `${explicit ?? ''}\0${process.env['TUG_RA_PATH'] ?? ''}\0${process.env['PATH'] ?? ''}`;
  let pending = cache.get(key);
  if (!pending) {
    pending = discover(explicit);
    cache.set(key, pending);
  }
  return pending;
}

async function discover(explicit?: string): Promise<RustAnalyzerInfo> {
  const candidates: Array<{ source: string; path: string | null }> = [
    ...(explicit ? [{ source: '--rust-analyzer', path: explicit }] : []),
    ...(process.env['TUG_RA_PATH'] ? [{ source: '$TUG_RA_PATH', path: process.env['TUG_RA_PATH'] }] : []),
    { source: 'PATH', path: await onPath('rust-analyzer') },
    { source: 'tug setup (.toolchains)', path: MANAGED_RUST_ANALYZER },
  ];
  const searched: string[] = [];
  for (const candidate of candidates) {
    if (!candidate.path) {
      searched.push(`${candidate.source}: no rust-analyzer`);
      continue;
    }
    const version = await versionOf(candidate.path);
    if (version.ok) {
      searched.push(`${candidate.source}: ${candidate.path} (${version.text})`);
      noteToolVersion('rust-analyzer', version.text.replace(/^rust-analyzer\s+/, ''));
      return { found: true, path: candidate.path, source: candidate.source, version: version.text, searched };
    }
    searched.push(`${candidate.source}: ${candidate.path} does not run (${version.text})`);
    // An explicit choice that does not work is an error, not a hint to look elsewhere.
    if (candidate.source === '--rust-analyzer') break;
  }
  return { found: false, path: null, source: null, version: null, searched };
}

export async function requireRustAnalyzer(explicit?: string): Promise<{ path: string; version: string }> {
  const info = await discoverRustAnalyzer(explicit);
  if (!info.found) {
    throw new TugError('RustAnalyzerNotFound', 'no working rust-analyzer was found', { details: { searched_paths: info.searched, remedy: 'tug toolchain rust setup' } });
  }
  return { path: info.path!, version: info.version! };
}

async function versionOf(binary: string): Promise<{ ok: boolean; text: string }> {
  const execa = await loadExeca();
  const result = await execa(binary, ['--version'], { reject: false, timeout: 20_000, stdin: 'ignore' });
  const out = String(result.stdout ?? '').trim();
  if (result.exitCode === 0 && out.includes('rust-analyzer')) return { ok: true, text: out };
  const why = String(result.stderr ?? '').trim().split('\n')[0] || result.shortMessage || `exit ${result.exitCode}`;
  return { ok: false, text: why.slice(0, 200) };
}

async function onPath(name: string): Promise<string | null> {
  for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (await access(candidate).then(() => true, () => false)) return candidate;
  }
  return null;
}

/** Clears the per-process answer (after `toolchain rust setup` installs one). */
export function forgetDiscovery(): void {
  cache.clear();
}

/** rust-analyzer versions carry their build date; builds before 2024 miss rename fixes tug relies on, so they are reported. */
export function oldVersionWarning(version: string): { code: string; message: string; details: Record<string, unknown> } | null {
  const date = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(version)?.[0];
  if (!date || date >= '2024-01-01') return null;
  return { code: 'OldRustAnalyzer', message: `${version} is older than 2024-01-01; renames may miss references (run \`tug toolchain rust setup\`)`, details: { version } };
}
