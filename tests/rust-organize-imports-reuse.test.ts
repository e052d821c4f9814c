// organize-imports on a tree whose `cargo check` this process has already seen pass (a verified change's result, or
// an earlier organize-imports of another file) takes rustc's answer from that check instead of running its own
// (lib/verify/cargo-lints.ts); the answer is keyed by the tree, the toolchain and the flags, so an edit or another
// RUSTFLAGS gets a check of its own. Whether a check ran shows in the session: organize-imports' own checks build in
// `.git/tug/cargo-target/<hash>-imports`, verification's elsewhere.
import test from 'ava';
import { existsSync } from 'node:fs';
import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { applyPatchset, organizeImports } from '../lib/index.js';
import { makeRepo } from './helpers/repo.js';
import { requireRustToolchain } from './helpers/toolchains.js';

const LIB = `pub mod other;
use std::collections::HashMap;
use std::fmt::Write;

pub fn index(words: &[&str]) -> HashMap<usize, String> {
    words.iter().map(|w| w.to_string()).enumerate().collect()
}
`;
const OTHER = `use std::fmt::Debug;
use std::mem;

pub fn show<T: Debug>(value: T) -> String {
    format!("{value:?}")
}
`;
type Json = Record<string, any>;

test('a verified change\'s passing cargo check answers organize-imports on its tree; an edit or other RUSTFLAGS are checked anew', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(900_000);
  const repo = await makeRepo({ '.gitignore': 'target\n', 'Cargo.toml': '[package]\nname = "reuse"\nversion = "0.1.0"\nedition = "2021"\n', 'src/lib.rs': LIB, 'src/other.rs': OTHER });
  const targets = path.join(repo.root, '.git', 'tug', 'cargo-target');
  const ownChecks = async () => (await readdir(targets).catch(() => [] as string[])).filter((d) => d.endsWith('-imports'));
  const organize = async (file: string) => {
    const r = (await organizeImports({ workspace: repo.root, file, verify: 'none' })) as Json;
    t.is(r.status, 'ok', JSON.stringify(r).slice(0, 800));
    // Nothing to do is `changed: false` and no commit.
    const text = r.changed === false ? null : await repo.git('show', `${r.git.commit}:${file}`);
    if (r.git?.branch) await repo.git('branch', '-D', r.git.branch);
    return text;
  };
  try {
    // A verified change: its result tree passes `cargo check` in the sandbox.
    const edit = { file: 'src/lib.rs', line: 5, col: 8, old_text: 'index', new_text: 'lookup' };
    const changed = (await applyPatchset({ workspace: repo.root, patchset: { edits: [edit] }, verify: 'syntax' } as never)) as Json;
    t.is(changed.status, 'ok', JSON.stringify(changed).slice(0, 800));
    t.like(changed.verification, { status: 'passed' });
    await repo.git('reset', '-q', '--hard', changed.git.commit);
    const lib = LIB.replace('index', 'lookup');

    // The working tree now holds exactly the tree verification checked: rustc's answer is taken from that check.
    t.is(await organize('src/lib.rs'), lib.replace('use std::fmt::Write;\n', '').trimEnd());
    t.is(await organize('src/other.rs'), OTHER.replace('use std::mem;\n', '').trimEnd());
    t.deepEqual(await ownChecks(), [], 'organize-imports ran a cargo check of a tree verification had checked');

    // An edit (another unused import) is a new tree: checked anew, and its answer has the new import out too.
    await writeFile(path.join(repo.root, 'src/other.rs'), OTHER.replace('use std::mem;\n', 'use std::mem;\nuse std::cell::Cell;\n'));
    t.is(await organize('src/other.rs'), OTHER.replace('use std::mem;\n', '').trimEnd());
    t.is((await ownChecks()).length, 1, 'an edited tree needs a check of its own');

    // The same edited tree, another file: that check's answer serves it (its build dir removed, and not made again).
    await rm(path.join(targets, (await ownChecks())[0]!), { recursive: true, force: true });
    t.is(await organize('src/lib.rs'), lib.replace('use std::fmt::Write;\n', '').trimEnd());
    t.deepEqual(await ownChecks(), []);

    // Other flags for rustc are another key: with unused_imports allowed, rustc flags nothing and nothing goes (the
    // edit's import out of rustfmt's order is only sorted).
    const flags = process.env['RUSTFLAGS'];
    process.env['RUSTFLAGS'] = '-A unused_imports';
    try {
      t.is(await organize('src/other.rs'), `use std::cell::Cell;\n${OTHER}`.trimEnd());
      t.true(existsSync(targets) && (await ownChecks()).length === 1, 'other RUSTFLAGS need a check of their own');
    } finally {
      if (flags === undefined) delete process.env['RUSTFLAGS'];
      else process.env['RUSTFLAGS'] = flags;
    }
  } finally {
    await repo.cleanup();
  }
});
