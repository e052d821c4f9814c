// move-symbol of a Rust item that a macro_rules! body names, through the real CLI with rust-analyzer and cargo, on
// fixtures/rust/itoa_lut (itoa's shape: `DEC_DIGITS_LUT` read only inside `impl_Integer!`). The sweep's move of it
// failed verification (the body still named the old path); now it is refused before anything is written, naming the
// place, and with keep_reexport (the old path kept by a `pub use`) it goes through with the crate's tests green. Both
// calls go to one private daemon (helpers/warm-fixture.ts), so rust-analyzer indexes the crate once; the cold CLI
// move-symbol is rust-move's and rust-sweep-caught's.
import { readFileSync } from 'node:fs';
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';
import { requireRustToolchain } from './helpers/toolchains.js';
import { withDaemon } from './helpers/warm-fixture.js';

const GUARD_MS = 900_000;
const fixture = (file: string) => readFileSync(new URL(`../../fixtures/rust/itoa_lut/${file}`, import.meta.url), 'utf8');
const LIB = fixture('src/lib.rs');
const lineOf = (needle: string) => LIB.split('\n').findIndex((l) => l.includes(needle)) + 1;

test('moving a const a macro_rules! body names is refused with the place; keep_reexport moves it and the tests pass', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(GUARD_MS);
  const repo = await makeRepo({ 'Cargo.toml': fixture('Cargo.toml'), 'src/lib.rs': LIB });
  try {
    await withDaemon(repo.root, async (env) => {
      const at = `src/lib.rs:${lineOf('const DEC_DIGITS_LUT')}:7`;
      const use = lineOf('&DEC_DIGITS_LUT[pair..pair + 2]');
      const refused = await tug(repo.root, ['run', 'move-symbol', '--at', at, '--destination', 'crate::digits', '--json'], { env });
      t.is(refused.exitCode, 4, refused.stdout);
      t.is(refused.json.error.code, 'UnsafeRefactor');
      t.like(refused.json.error.details, { reason: 'named in a macro body', line: use, places: [`src/lib.rs:${use}:${LIB.split('\n')[use - 1]!.indexOf('DEC_DIGITS_LUT') + 1}`] });
      t.true(refused.json.error.message.includes('impl_Integer!'), refused.json.error.message);
      t.is(await repo.git('branch', '--list', 'tug/*'), '');

      const kept = await tug(repo.root, ['run', 'move-symbol', '--at', at, '--destination', 'crate::digits', '--keep-reexport', '--verify', 'tests', '--json'], { env });
      t.is(kept.exitCode, 0, kept.stdout.slice(0, 3000));
      t.is(kept.json.verification.status, 'passed');
      t.like(kept.json.unsure[0], { file: 'src/lib.rs', line: use, reason: 'macro_definition', macro: 'impl_Integer' });
      t.true((await repo.git('show', `${kept.json.git.commit}:src/digits.rs`)).includes('DEC_DIGITS_LUT: &[u8] = b"\\'));
    });
  } finally {
    await repo.cleanup();
  }
});
