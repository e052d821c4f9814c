// `tug toolchain rust …`: which rust-analyzer and cargo tug would use, and installing Debian's rust-analyzer when none works.
import { loadExeca } from '../verify/execa.js';
import { TugError } from '../core/errors.js';
import { discoverRustAnalyzer, forgetDiscovery, SETUP_SCRIPT } from './discovery.js';

export interface RustInfo {
  found: boolean;
  rust_analyzer: string | null;
  source: string | null;
  version: string | null;
  searched: string[];
  cargo: string | null;
  clippy: boolean;
}

export async function rustInfo(explicit?: string): Promise<RustInfo> {
  const execa = await loadExeca();
  const [ra, cargo, clippy] = await Promise.all([
    discoverRustAnalyzer(explicit),
    execa('cargo', ['--version'], { reject: false, stdin: 'ignore', timeout: 20_000 }),
    execa('cargo', ['clippy', '--version'], { reject: false, stdin: 'ignore', timeout: 20_000 }),
  ]);
  return {
    found: ra.found,
    rust_analyzer: ra.path,
    source: ra.source,
    version: ra.version,
    searched: ra.searched,
    cargo: cargo.exitCode === 0 ? String(cargo.stdout).trim() : null,
    clippy: clippy.exitCode === 0,
  };
}

/** RustAnalyzerNotFound with the search, or a plain usage error when cargo itself is missing. */
export function assertRustUsable(info: RustInfo): void {
  if (!info.found) {
    throw new TugError('RustAnalyzerNotFound', 'no working rust-analyzer was found', { details: { searched_paths: info.searched, remedy: 'tug toolchain rust setup' } });
  }
  if (!info.cargo) throw new TugError('NotCargoProject', 'cargo is not installed, so Rust changes cannot be verified', { details: { path: 'cargo', remedy: 'install a Rust toolchain (rustup or the distribution packages)' } });
}

/** Runs bin/setup-rust-analyzer (it keeps a working one, else installs Debian's build into .toolchains/), then looks again. */
export async function setupRust(explicit?: string, progress?: (line: string) => void): Promise<RustInfo> {
  const before = await rustInfo(explicit);
  if (before.found) return before;
  const execa = await loadExeca();
  const run = execa(SETUP_SCRIPT, [], { reject: false, stdin: 'ignore', timeout: 15 * 60_000, all: true });
  run.stderr?.on('data', (chunk: Buffer) => progress?.(chunk.toString('utf8').trimEnd()));
  const result = await run;
  if (result.exitCode !== 0) {
    throw new TugError('RustAnalyzerNotFound', 'installing rust-analyzer failed', {
      details: { searched_paths: before.searched, output: String(result.all ?? '').slice(-4000), remedy: 'pass --rust-analyzer PATH or set TUG_RA_PATH' },
    });
  }
  forgetDiscovery();
  return rustInfo(explicit);
}
