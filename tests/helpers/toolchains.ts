// Real-tier tests need real toolchains: under CI a missing one fails the test, elsewhere the test is skipped with a loud note.
import type { ExecutionContext } from 'ava';
import { execa } from './execa.js';
import { discoverRustAnalyzer } from '../../lib/rust/discovery.js';

let cargo: Promise<boolean> | undefined;

/** True when rust-analyzer and cargo both run; otherwise fails (CI) or logs why the test is skipped. */
export async function requireRustToolchain(t: ExecutionContext): Promise<boolean> {
  cargo ??= execa('cargo', ['--version'], { reject: false, stdin: 'ignore' }).then((r) => r.exitCode === 0);
  const ra = await discoverRustAnalyzer();
  const absent = [...(ra.found ? [] : [`rust-analyzer (${ra.searched.join('; ')})`]), ...((await cargo) ? [] : ['cargo'])];
  if (absent.length === 0) return true;
  missing(t, `missing toolchain: ${absent.join(', ')}; run bin/setup-rust-analyzer`);
  return false;
}

/** Something a real-tier test needs is not here: the test fails under CI, and elsewhere is skipped loudly. */
export function missing(t: ExecutionContext, message: string): void {
  if (process.env['CI']) {
    t.fail(message);
  } else {
    t.log(`SKIPPED (not CI): ${message}`);
    console.warn(`[tug tests] SKIPPED ${t.title}: ${message}`);
    t.pass();
  }
}
