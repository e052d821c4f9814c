// A doc test's calls that rust-analyzer's rename does not reach (found on strsim: `assert_eq!(Ok(3), hamming(…))` in
// hamming's own doc comment) are listed as unsure, never left silently, and --include-unsure renames them so cargo
// test passes; the same word inside a string literal is text and stays.
// Both calls go through one private daemon (rust-analyzer indexes the crate once).
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';
import { requireRustToolchain } from './helpers/toolchains.js';
import { withDaemon } from './helpers/warm-fixture.js';

type Json = Record<string, any>;

const LIB = `//! Distances between strings.

/// Counts the positions where the strings differ.
///
/// \`\`\`
/// use dt::{hamming, Error::Unequal};
///
/// assert_eq!(Ok(3), hamming("hamming", "hammers"));
///
/// assert_eq!(Err(Unequal), hamming("hamming", "ham"));
/// \`\`\`
pub fn hamming(a: &str, b: &str) -> Result<usize, Error> {
    if a.chars().count() != b.chars().count() {
        return Err(Error::Unequal);
    }
    Ok(a.chars().zip(b.chars()).filter(|(x, y)| x != y).count())
}

#[derive(Debug, PartialEq)]
pub enum Error {
    Unequal,
}
`;

test('every doc-test mention of a renamed fn is renamed or listed unsure; with --include-unsure cargo test passes', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  // No edition: 2015, as strsim's; there rust-analyzer does not expand assert_eq! in the doc-test overlay.
  const repo = await makeRepo({ 'Cargo.toml': '[package]\nname = "dt"\nversion = "0.1.0"\n', 'src/lib.rs': LIB });
  try {
    await withDaemon(repo.root, async (env) => {
      const impact = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'src/lib.rs:12:8', '--to', 'distance', '--json'], { env });
      t.is(impact.exitCode, 0, impact.stdout);
      const seen = new Set([
        ...(impact.json.references as Json[]).map((r) => `${r.location.line}:${r.location.col}`),
        ...((impact.json.unsure ?? []) as Json[]).map((u) => `${u.line}:${u.col}`),
      ]);
      // The calls (not the strings) on the doc lines: each accounted for.
      for (const [line, col] of [[6, 14], [8, 23], [10, 30]]) t.true(seen.has(`${line}:${col}`), `src/lib.rs:${line}:${col} in ${[...seen].join(' ')}`);
      t.false([...seen].some((s) => s === '8:32' || s === '10:39'), 'a string literal is not a mention');
      const run = await tug(repo.root, ['rename', 'src/lib.rs:12:8', 'distance', '--include-unsure', '--verify', 'tests', '--json'], { env });
      t.is(run.exitCode, 0, run.stdout);
      t.is(run.json.verification.status, 'passed');
      const after = await repo.git('show', `${run.json.git.commit}:src/lib.rs`);
      t.false(/hamming\(/.test(after), after);
      t.true(after.includes('distance("hamming", "hammers")'), after);
    });
  } finally {
    await repo.cleanup();
  }
});
