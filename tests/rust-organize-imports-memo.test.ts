// A process that stays (the daemon, or a library user) remembers organize-imports' plan for a snapshot's Rust file so
// that asking again costs no cargo check (lib/rust/organize-imports.ts): the remembered answer must be the one a
// fresh cargo check gives, and an edit to the file (a new snapshot) must be planned anew, not answered from memory.
// A file without `use` is answered without building at all.
import test from 'ava';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { organizeImports } from '../lib/index.js';
import { shutdownRustAnalyzers } from '../lib/rust/servers.js';
import { makeRepo } from './helpers/repo.js';
import { requireRustToolchain } from './helpers/toolchains.js';

const LIB = `use std::collections::HashMap;
use std::fmt::Write;

pub fn index(words: &[&str]) -> HashMap<usize, String> {
    words.iter().map(|w| w.to_string()).enumerate().collect()
}
`;
type Json = Record<string, any>;

test.after.always(() => shutdownRustAnalyzers());

test('the same snapshot is answered alike twice; after an edit the new unused import goes too', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(900_000);
  const repo = await makeRepo({ '.gitignore': 'target\n', 'Cargo.toml': '[package]\nname = "memo"\nversion = "0.1.0"\nedition = "2021"\n', 'src/lib.rs': LIB });
  try {
    const ask = async () => (await organizeImports({ workspace: repo.root, file: 'src/lib.rs', verify: 'none' })) as Json;
    const result = async (r: Json) => repo.git('show', `${r.git.commit}:src/lib.rs`);
    const first = await ask();
    t.is(first.status, 'ok', JSON.stringify(first).slice(0, 800));
    const expected = LIB.replace('use std::fmt::Write;\n', '').trimEnd(); // git show's output, trimmed
    t.is(await result(first), expected);
    await repo.git('branch', '-D', first.git.branch);

    const second = await ask();
    t.deepEqual(second.patch.edits, first.patch.edits);
    t.is(await result(second), expected);
    await repo.git('branch', '-D', second.git.branch);

    // An uncommitted edit adds another unused import: a new snapshot, planned with a new cargo check.
    await writeFile(path.join(repo.root, 'src/lib.rs'), LIB.replace('use std::fmt::Write;\n', 'use std::fmt::Write;\nuse std::mem;\n'));
    const third = await ask();
    t.is(third.status, 'ok', JSON.stringify(third).slice(0, 800));
    t.is(await result(third), expected);
  } finally {
    await repo.cleanup();
  }
});

test('a file without use: ok, changed false, without building (another file of the crate does not compile)', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(900_000);
  const repo = await makeRepo({
    '.gitignore': 'target\n',
    'Cargo.toml': '[package]\nname = "memo"\nversion = "0.1.0"\nedition = "2021"\n',
    'src/lib.rs': 'pub mod half;\n\npub fn double(x: u32) -> u32 {\n    x * 2\n}\n',
    'src/half.rs': 'use std::fmt::Write;\n\npub fn half(x: u32) -> u32 {\n    x / undefined_name\n}\n',
  });
  try {
    const branches = await repo.git('branch', '--list');
    const clean = (await organizeImports({ workspace: repo.root, file: 'src/lib.rs', verify: 'none' })) as Json;
    t.like(clean, { status: 'ok', changed: false, summary: { files_changed: 0 } });
    t.is(await repo.git('branch', '--list'), branches);
    // Where there are imports, rustc must answer, and cannot while the crate does not compile.
    const broken = await organizeImports({ workspace: repo.root, file: 'src/half.rs', verify: 'none' }).then(() => null, (e: Json) => e);
    t.is(broken?.code, 'UnsupportedByAdapter', JSON.stringify(broken));
  } finally {
    await repo.cleanup();
  }
});
