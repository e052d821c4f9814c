// Three extract-function results the Rust sweep's verification caught (docs/QUALITY.md), now right before verification:
// rust-analyzer bound a returned `let mut` without its `mut` at the call (strsim `cache[j] = …`, E0596), made a moved
// `let mut` iterator a parameter without `mut` (strsim `bi.next()`, E0596), and wrote `[u32; _]` for an array length it
// could not evaluate (percent-encoding's AsciiSet, refused with a reason). Real rust-analyzer and cargo for the first two.
// A crate asked twice asks through one private daemon (helpers/warm-fixture.ts: rust-analyzer indexes it and std once,
// not per call, ~5 CPU s each); the crate asked once (the deref inside a macro) keeps the cold CLI extract-function.
import test from 'ava';
import { checkExtractedSignature } from '../lib/rust/extract-signature.js';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';
import { requireRustToolchain } from './helpers/toolchains.js';
import { withDaemon } from './helpers/warm-fixture.js';

const LIB = `pub fn cached(n: usize) -> usize {
    let mut cache: Vec<usize> = (1..n + 1).collect();
    let mut total = 0;
    for j in 0..n {
        cache[j] += 1;
        total += cache[j];
    }
    total
}

pub fn second(s: &str) -> Option<char> {
    let mut it = s.chars();
    assert_eq!(Some('a'), it.next());
    it.next()
}

#[cfg(test)]
mod tests {
    #[test]
    fn all() {
        assert_eq!(super::cached(3), 9);
        assert_eq!(super::second("ab"), Some('b'));
    }
}
`;

test('extract-function keeps the mut of a returned binding and of a moved iterator; cargo test passes', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(900_000);
  const repo = await makeRepo({ '.gitignore': 'target\n', 'Cargo.toml': '[package]\nname = "mutx"\nversion = "0.1.0"\nedition = "2021"\n', 'src/lib.rs': LIB });
  try {
    await withDaemon(repo.root, async (env) => {
      for (const [range, expected] of [
        ['src/lib.rs:2:5-2:54', ['    let mut cache = part(n);\n', 'fn part(n: usize) -> Vec<usize> {']],
        ['src/lib.rs:13:5-14:14', ['    part(it)\n', 'fn part(mut it: ']],
      ] as const) {
        const run = await tug(repo.root, ['run', 'extract-function', '--range', range, '--name', 'part', '--verify', 'tests', '--json'], { env });
        t.is(run.exitCode, 0, `${range}: ${run.stdout.slice(0, 3000)}`);
        t.is(run.json.verification.status, 'passed', range);
        const after = await repo.git('show', `${run.json.git.commit}:src/lib.rs`);
        for (const text of expected) t.true(after.includes(text), `${range}: ${after}`);
        await repo.git('branch', '-D', run.json.git.branch);
      }
    });
  } finally {
    await repo.cleanup();
  }
});

// rust-analyzer's own edit on percent-encoding's AsciiSet::add (`mask: [Chunk; ASCII_RANGE_LEN / BITS_PER_CHUNK]`,
// `BITS_PER_CHUNK = 8 * mem::size_of::<Chunk>()`), kept verbatim: E0121 in the return type.
test('extract-function refuses an array length rust-analyzer wrote as `_` (percent-encoding)', (t) => {
  const original = `impl AsciiSet {
    pub const fn add(&self, byte: u8) -> Self {
        let mut mask = self.mask;
        mask[byte as usize / BITS_PER_CHUNK] |= 1 << (byte as usize % BITS_PER_CHUNK);
        AsciiSet { mask }
    }
}
`;
  const bytes = new TextEncoder().encode(original);
  const from = original.indexOf('let mut mask');
  const to = original.indexOf('self.mask;') + 'self.mask;'.length;
  const end = original.indexOf('    }\n}') + '    }\n'.length;
  const edits = [
    { file: 'src/lib.rs', span: { start: from, end: to }, old_text: original.slice(from, to), new_text: 'let mask = self.fun_name();' },
    { file: 'src/lib.rs', span: { start: end, end }, old_text: '', new_text: '\n    const fn fun_name(&self) -> [u32; _] {\n        let mut mask = self.mask;\n        mask\n    }\n' },
  ];
  const error = t.throws(() => checkExtractedSignature(edits, 'fun_name', bytes, from, to)) as any;
  t.is(error.code, 'UnsupportedByAdapter');
  t.is(error.details.reason, 'type rust-analyzer cannot name');
  // With a length it could name, the same edit goes through, the binding at the call `mut` again.
  edits[1]!.new_text = edits[1]!.new_text.replace('[u32; _]', '[u32; 4]');
  const fixed = checkExtractedSignature(edits, 'fun_name', bytes, from, to);
  t.is(fixed[0]!.new_text, 'let mut mask = self.fun_name();');
});

// scopeguard in the sweep: `let captured = guard((), |()| captured_drops.set(..));` extracted with the Cell before it
// returned `(Cell<i32>, ScopeGuard<(), impl FnOnce(())>)`, a closure borrowing a local it returns beside it (E0597,
// E0505); with the Cell left outside, a closure borrowing the new fn's parameter (E0700). A `move` closure is fine.
const GUARDS = `pub struct Guard<F: FnOnce()>(Option<F>);

impl<F: FnOnce()> Drop for Guard<F> {
    fn drop(&mut self) {
        (self.0.take().unwrap())()
    }
}

pub fn guard<F: FnOnce()>(f: F) -> Guard<F> {
    Guard(Some(f))
}

pub fn adder(k: u32) -> u32 {
    let add = move |x: u32| x + k;
    add(1) + add(2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn drops_once() {
        let drops = Cell::new(0);
        let g = guard(|| drops.set(drops.get() + 1));
        drop(g);
        assert_eq!(drops.get(), 1);
        assert_eq!(adder(10), 23);
    }
}
`;

test('extract-function refuses to return a closure that borrows; a move closure is extracted and cargo test passes', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(900_000);
  const repo = await makeRepo({ '.gitignore': 'target\n', 'Cargo.toml': '[package]\nname = "guards"\nversion = "0.1.0"\nedition = "2021"\n', 'src/lib.rs': GUARDS });
  try {
    const lines = GUARDS.split('\n');
    const range = (first: string, last: string) => {
      const a = lines.findIndex((l) => l.includes(first));
      const b = lines.findIndex((l) => l.includes(last));
      return `src/lib.rs:${a + 1}:${lines[a]!.search(/\S/) + 1}-${b + 1}:${lines[b]!.length + 1}`;
    };
    await withDaemon(repo.root, async (env) => {
      const refused = await tug(repo.root, ['run', 'extract-function', '--range', range('let drops =', 'let g = guard('), '--name', 'part', '--verify', 'tests', '--json'], { env });
      t.is(refused.json?.error?.code, 'UnsupportedByAdapter', refused.stdout.slice(0, 3000));
      t.is(refused.json.error.details.reason, 'returned closure borrows');
      const run = await tug(repo.root, ['run', 'extract-function', '--range', range('let add = move', 'let add = move'), '--name', 'part', '--verify', 'tests', '--json'], { env });
      t.is(run.exitCode, 0, run.stdout.slice(0, 3000));
      t.is(run.json.verification.status, 'passed');
      t.true((await repo.git('show', `${run.json.git.commit}:src/lib.rs`)).includes('impl Fn(u32) -> u32'));
    });
  } finally {
    await repo.cleanup();
  }
});

// percent-encoding in the sweep: an owned `bytes` the new fn receives as `&Vec<u8>` kept `&*bytes` inside
// `debug_assert!`, where rust-analyzer does not rewrite uses (E0606); it becomes `&**bytes`.
const RAW = `pub fn checked(bytes: Vec<u8>) -> String {
    let text = String::from_utf8(bytes.clone()).unwrap();
    let raw: *const [u8] = text.as_bytes();
    debug_assert!(raw != &*bytes as *const [u8]);
    assert_eq!(bytes.len(), text.len());
    text
}

#[cfg(test)]
mod tests {
    #[test]
    fn hi() {
        assert_eq!(super::checked(vec![104, 105]), "hi");
    }
}
`;

test('extract-function derefs a parameter it borrowed once more inside a macro; cargo test passes (percent-encoding)', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(900_000);
  const repo = await makeRepo({ '.gitignore': 'target\n', 'Cargo.toml': '[package]\nname = "raw"\nversion = "0.1.0"\nedition = "2018"\n', 'src/lib.rs': RAW });
  try {
    const run = await tug(repo.root, ['run', 'extract-function', '--range', 'src/lib.rs:3:5-4:50', '--name', 'part', '--verify', 'tests', '--json']);
    t.is(run.exitCode, 0, run.stdout.slice(0, 3000));
    t.is(run.json.verification.status, 'passed');
    const after = await repo.git('show', `${run.json.git.commit}:src/lib.rs`);
    t.true(after.includes('&**bytes as *const [u8]'), after);
  } finally {
    await repo.cleanup();
  }
});

// scopeguard in the sweep: `defer!(drops.set(1000));` extracted into a fn ran the deferred code when that fn returned,
// before `assert_eq!(drops.get(), 0)` (the crate's test failed): the macro declares `let _guard`, held for its Drop.
const DEFER = `pub struct Guard<F: FnOnce()>(pub Option<F>);

impl<F: FnOnce()> Drop for Guard<F> {
    fn drop(&mut self) {
        (self.0.take().unwrap())()
    }
}

macro_rules! defer {
    ($($t:tt)*) => {
        let _guard = Guard(Some(|| { $($t)* }));
    };
}

pub fn deferred() -> u32 {
    let n = std::cell::Cell::new(0);
    {
        defer!(n.set(n.get() + 1));
        let _held = Guard(Some(|| n.set(n.get() + 10)));
        assert_eq!(n.get(), 0);
    }
    n.get()
}
`;

test('extract-function refuses a selection holding a binding for its Drop, written or declared by the file`s macro', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(900_000);
  const repo = await makeRepo({ '.gitignore': 'target\n', 'Cargo.toml': '[package]\nname = "defer"\nversion = "0.1.0"\nedition = "2021"\n', 'src/lib.rs': DEFER });
  try {
    const lines = DEFER.split('\n');
    await withDaemon(repo.root, async (env) => {
      for (const [needle, says] of [['defer!(n.set', '`defer!`, which declares `let _guard`'], ['let _held', '`let _held`']] as const) {
        const i = lines.findIndex((l) => l.includes(needle));
        const range = `src/lib.rs:${i + 1}:9-${i + 1}:${lines[i]!.length + 1}`;
        const run = await tug(repo.root, ['run', 'extract-function', '--range', range, '--name', 'part', '--verify', 'tests', '--json'], { env });
        t.is(run.json?.error?.code, 'UnsupportedByAdapter', `${range}: ${run.stdout.slice(0, 3000)}`);
        t.is(run.json.error.details.reason, 'binding held for its drop');
        t.true(run.json.error.message.includes(says), run.json.error.message);
      }
    });
  } finally {
    await repo.cleanup();
  }
});
