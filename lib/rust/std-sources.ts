// Finds the std sources (library/) rust-analyzer needs to expand std macros; without them `write!`/`format!` arguments are invisible to rename.
import { access, realpath } from 'node:fs/promises';
import path from 'node:path';
import { loadExeca } from '../verify/execa.js';

const cache = new Map<string, Promise<string | null>>();

/**
 * The library/ directory to hand rust-analyzer as `cargo.sysrootSrc`, or null when none is found. Order: $RUST_SRC_PATH,
 * the active toolchain's rust-src component, then the std sources bin/setup-rust-analyzer unpacked beside the binary.
 */
export function stdSourcesFor(binary: string): Promise<string | null> {
  const key = `${binary}\0${process.env['RUST_SRC_PATH'] ?? ''}`;
  let pending = cache.get(key);
  if (!pending) {
    pending = find(binary);
    cache.set(key, pending);
  }
  return pending;
}

async function find(binary: string): Promise<string | null> {
  const candidates: string[] = [];
  if (process.env['RUST_SRC_PATH']) candidates.push(process.env['RUST_SRC_PATH']);
  const execa = await loadExeca();
  const sysroot = await execa('rustc', ['--print', 'sysroot'], { reject: false, stdin: 'ignore', timeout: 20_000 });
  if (sysroot.exitCode === 0) candidates.push(path.join(String(sysroot.stdout).trim(), 'lib/rustlib/src/rust/library'));
  const real = await realpath(binary).catch(() => binary);
  // The wrapper lives in .toolchains/bin/; the sources it unpacked in .toolchains/rust-analyzer/rust-src.
  candidates.push(path.join(path.dirname(real), '..', 'rust-analyzer', 'rust-src'));
  for (const candidate of candidates) {
    if (await access(path.join(candidate, 'std', 'src', 'lib.rs')).then(() => true, () => false)) return realpath(candidate);
  }
  return null;
}
