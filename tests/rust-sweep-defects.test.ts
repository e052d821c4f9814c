// Defects the sweep over real crates found in Rust rename and change-signature (docs/QUALITY.md), each on a small
// crate written here that has the same shape, run through the real CLI with cargo and rust-analyzer: every result tug
// calls ok passes the crate's own tests, and what it cannot do it refuses with a reason. A test that makes several calls
// on its crate makes them through one private daemon (rust-analyzer indexes the crate once); the doc-test rename is cold.
import test from 'ava';
import { checkExtractedSignature } from '../lib/rust/extract-signature.js';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';
import { requireRustToolchain } from './helpers/toolchains.js';
import { withDaemon } from './helpers/warm-fixture.js';

const GUARD_MS = 900_000;
const MANIFEST = '[package]\nname = "sg"\nversion = "0.1.0"\nedition = "2018"\n';

// scopeguard's shape: an exported macro calls the crate's fn through `$crate::`; itoa's: a macro of the module
// implements a sealed trait for several types and reads a const of the module.
const LIB = `#[macro_export]
macro_rules! defer {
    ($e:expr) => {
        let _guard = $crate::guard((), |()| $e);
    };
}

pub struct Guard<T, F: FnOnce(T)> {
    v: Option<T>,
    f: Option<F>,
}

pub fn guard<T, F: FnOnce(T)>(v: T, dropfn: F) -> Guard<T, F> {
    Guard { v: Some(v), f: Some(dropfn) }
}

impl<T, F: FnOnce(T)> Drop for Guard<T, F> {
    fn drop(&mut self) {
        (self.f.take().unwrap())(self.v.take().unwrap())
    }
}

const LUT: &[u8] = b"0123456789";

mod private {
    pub trait Sealed {
        fn digit(self) -> u8;
    }
}

pub trait Digit: private::Sealed {}

macro_rules! impl_digit {
    ($($t:ty),*) => {$(
        impl private::Sealed for $t {
            fn digit(self) -> u8 {
                LUT[self as usize % 10]
            }
        }
        impl Digit for $t {}
    )*};
}

impl_digit!(u8, u32);

pub fn last_digit<D: Digit>(d: D) -> u8 {
    d.digit()
}

pub fn double(x: u8) -> u8 {
    x * 2
}

pub fn doubled(xs: &[u8]) -> Vec<u8> {
    xs.iter().copied().map(double).collect()
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    #[test]
    fn deferred_and_digits() {
        let c = Cell::new(0);
        {
            defer!(c.set(c.get() + 1));
        }
        assert_eq!(c.get(), 1);
        assert_eq!(super::last_digit(13u32), b'3');
        assert_eq!(super::doubled(&[1, 2]), vec![2, 4]);
    }
}

pub struct Count(pub u8);

impl Iterator for Count {
    type Item = u8;
    fn next(&mut self) -> Option<u8> {
        None
    }
}

`;

async function crate(t: any) {
  if (!(await requireRustToolchain(t))) return null;
  t.timeout(GUARD_MS);
  return makeRepo({ 'Cargo.toml': MANIFEST, 'src/lib.rs': LIB });
}

test('rename reaches `$crate::name` in a macro_rules! body and the names a module-local macro reads (scopeguard, itoa)', async (t) => {
  const repo = await crate(t);
  if (!repo) return;
  try {
    await withDaemon(repo.root, async (env) => {
      for (const [at, to, expect] of [
        ['src/lib.rs:13:8', 'make_guard', '$crate::make_guard((), |()| $e)'],
        ['src/lib.rs:23:7', 'TABLE', 'TABLE[self as usize % 10]'],
        ['src/lib.rs:25:5', 'sealed', 'impl sealed::Sealed for $t'],
        ['src/lib.rs:26:15', 'Closed', 'impl private::Closed for $t'],
      ] as const) {
        const run = await tug(repo.root, ['rename', at, to, '--verify', 'tests', '--json'], { env });
        t.is(run.exitCode, 0, `${at} → ${to}: ${run.stdout}`);
        t.deepEqual(run.json.unsure ?? [], [], `${at}: nothing left unsure`);
        t.is(run.json.verification.status, 'passed');
        const after = await repo.git('show', `${run.json.git.commit}:src/lib.rs`);
        t.true(after.includes(expect), after);
      }
    });
  } finally {
    await repo.cleanup();
  }
});

test('change-signature rewrites the call in the macro body; a fn passed as a value is refused unless forced', async (t) => {
  const repo = await crate(t);
  if (!repo) return;
  try {
    await withDaemon(repo.root, async (env) => {
      const params = JSON.stringify([{ name: 'v' }, { name: 'dropfn' }, { name: 'tag', type: 'u8', value: '0' }]);
      const run = await tug(repo.root, ['run', 'change-signature', '--at', 'src/lib.rs:13:8', '--params', params, '--verify', 'tests', '--json'], { env });
      t.is(run.exitCode, 0, run.stdout);
      t.true((await repo.git('show', `${run.json.git.commit}:src/lib.rs`)).includes('$crate::guard((), |()| $e, 0)'));

      const add = JSON.stringify([{ name: 'x' }, { name: 'by', type: 'u8', value: '2' }]);
      const refused = await tug(repo.root, ['run', 'change-signature', '--at', 'src/lib.rs:50:8', '--params', add, '--json'], { env });
      t.is(refused.exitCode, 4, refused.stdout);
      t.is(refused.json.error.code, 'UnsafeRefactor');
      t.is(refused.json.error.details.reason, 'value use');
      t.deepEqual(refused.json.error.details.uses, ['src/lib.rs:55:28']);

      // strsim, shlex: on an impl's `type Item` rust-analyzer's definition is std's, so the foreign trait went unseen and
      // its rename searched std for `Item` until the 60 s timeout.
      const line = LIB.split('\n').findIndex((l) => l.includes('type Item')) + 1;
      const item = await tug(repo.root, ['rename', `src/lib.rs:${line}:10`, 'Element', '--json'], { env });
      t.is(item.json?.error?.code, 'UnsafeRefactor', item.stdout);
      t.is(item.json.error.details.reason, 'implements a foreign trait');
    });
  } finally {
    await repo.cleanup();
  }
});

// strsim is edition 2015, where `use strsim::hamming;` in a doc test is read from the crate root: the doc-test calls
// were left unrenamed (listed unsure) and cargo test failed unless --include-unsure was given.
test('rename reaches the calls of an edition-2015 doc test that imports the fn by the crate name', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(GUARD_MS);
  const lib = `/// Counts the positions where the strings differ.
///
/// \`\`\`
/// use dt::hamming;
///
/// assert_eq!(3, hamming("hamming", "hammers"));
/// \`\`\`
pub fn hamming(a: &str, b: &str) -> usize {
    a.chars().zip(b.chars()).filter(|(x, y)| x != y).count()
}
`;
  const repo = await makeRepo({ 'Cargo.toml': '[package]\nname = "dt"\nversion = "0.1.0"\n', 'src/lib.rs': lib });
  try {
    const run = await tug(repo.root, ['rename', 'src/lib.rs:8:8', 'distance', '--verify', 'tests', '--json']);
    t.is(run.exitCode, 0, run.stdout);
    t.deepEqual(run.json.unsure ?? [], []);
    t.is(run.json.verification.status, 'passed');
    t.true((await repo.git('show', `${run.json.git.commit}:src/lib.rs`)).includes('assert_eq!(3, distance("hamming", "hammers"));'));
  } finally {
    await repo.cleanup();
  }
});

// extract-function on strsim, percent-encoding and scopeguard: rust-analyzer wrote signatures that do not compile.
const EXTRACT = `pub struct Wrap<F>(pub F);

pub fn jaro<'a, Iter1>(a: &'a Iter1) -> usize
where
    &'a Iter1: IntoIterator,
{
    let a_len = a.into_iter().count();
    a_len + 1
}

pub fn spread<Elem: Eq + Clone>(a: &[Elem]) -> usize {
    let n = a.len() + 2;
    let mut d = vec![0; n];
    let m = n * 2;
    d[0] = m;
    m + d[1]
}

pub fn fill(n: usize) -> Vec<usize> {
    let mut distances = vec![0; n + 1];
    let width = n * 2;
    distances[0] = width;
    distances
}

pub fn empty() -> Vec<u8> {
    let v: Vec<u8> = Vec::new();
    v
}

pub struct Pair {
    pub left: usize,
    pub right: usize,
}

pub fn pair(s: &str) -> Pair {
    Pair { left: s.len(), right: 0 }
}

pub fn wrapped() -> i32 {
    let g = Wrap(|x: i32| x + 1);
    let y = (g.0)(1);
    y
}

#[cfg(test)]
mod tests {
    #[test]
    fn all() {
        assert_eq!(super::jaro(&vec![1, 2]), 3);
        assert_eq!(super::spread(&[1]), 6);
        assert_eq!(super::fill(2), vec![4, 0, 0]);
        assert_eq!(super::wrapped(), 2);
    }
}
`;

/** `FILE:L:C-L:C` of the `nth` line holding `first` through the line holding `last` after it, whole lines. */
function rangeOf(text: string, first: string, last = first): string {
  const lines = text.split('\n');
  const a = lines.findIndex((l) => l.includes(first));
  const b = lines.findIndex((l, i) => i >= a && l.includes(last));
  const indent = lines[a]!.length - lines[a]!.trimStart().length;
  return `src/lib.rs:${a + 1}:${indent + 1}-${b + 1}:${lines[b]!.length + 1}`;
}

test('extract-function refuses the signatures rust-analyzer cannot write and repairs a borrow it gets wrong', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(GUARD_MS);
  const repo = await makeRepo({ 'Cargo.toml': MANIFEST, 'src/lib.rs': EXTRACT });
  try {
    await withDaemon(repo.root, async (env) => {
      for (const [range, reason] of [
        [rangeOf(EXTRACT, 'let a_len'), 'generic parameter not carried over'],
        [rangeOf(EXTRACT, 'let y = (g.0)(1)'), 'closure type in signature'],
      ]) {
        const run = await tug(repo.root, ['run', 'extract-function', '--range', range!, '--name', 'part', '--verify', 'tests', '--json'], { env });
        t.is(run.json?.error?.code, 'UnsupportedByAdapter', `${range}: ${run.stdout}`);
        t.is(run.json.error.details.reason, reason, range);
      }
      // shlex: inline of `Vec::new()` pasted std's body, which names the private `RawVec`.
      const lines = EXTRACT.split('\n');
      const at = lines.findIndex((l) => l.includes('Vec::new()'));
      const inline = await tug(repo.root, ['run', 'inline', '--at', `src/lib.rs:${at + 1}:${lines[at]!.indexOf('new()') + 1}`, '--json'], { env });
      t.is(inline.json?.error?.code, 'UnsupportedByAdapter', inline.stdout);
      t.is(inline.json.error.details.reason, 'callee outside the workspace');
      const run = await tug(repo.root, ['run', 'extract-function', '--range', rangeOf(EXTRACT, 'let width', 'distances[0] = width'), '--name', 'part', '--verify', 'tests', '--json'], { env });
      t.is(run.exitCode, 0, run.stdout);
      t.is(run.json.verification.status, 'passed');
      const after = await repo.git('show', `${run.json.git.commit}:src/lib.rs`);
      t.true(after.includes('part(n, &mut distances)') && after.includes('distances: &mut Vec<usize>'), after);
      t.is(await repo.git('branch', '--list', 'tug/*', '--format', '%(refname:short)'), 'tug/extract-function/function-part');

      // shlex, percent-encoding, scopeguard: the variable rust-analyzer binds is a struct literal's shorthand field, which
      // --name renamed into a field that does not exist.
      const p = lines.findIndex((l) => l.includes('Pair { left: s.len()'));
      const col = lines[p]!.indexOf('s.len()') + 1;
      const variable = await tug(repo.root, ['run', 'extract-variable', '--range', `src/lib.rs:${p + 1}:${col}-${p + 1}:${col + 7}`, '--name', 'size', '--verify', 'tests', '--json'], { env });
      t.is(variable.exitCode, 0, variable.stdout);
      t.true((await repo.git('show', `${variable.json.git.commit}:src/lib.rs`)).includes('Pair { left: size, right: 0 }'));
    });
  } finally {
    await repo.cleanup();
  }
});

// rust-analyzer's own edit on strsim's generic_damerau_levenshtein (`where Elem: Eq + Hash + Clone`), kept verbatim:
// the new fn got `<Elem>` and the where clause though no parameter uses Elem, and the call failed with E0282.
test('extract-function refuses a type parameter of the new fn that nothing at the call can infer (strsim)', (t) => {
  const original = `pub fn generic_damerau_levenshtein<Elem>(a_elems: &[Elem], b_elems: &[Elem]) -> usize
    where Elem: Eq + Hash + Clone {
    let a_len = a_elems.len();
    let b_len = b_elems.len();
    let mut distances = vec![0; (a_len + 2) * (b_len + 2)];
    let max_distance = a_len + b_len;
    distances[0] = max_distance;
    max_distance
}
`;
  const bytes = new TextEncoder().encode(original);
  const from = original.indexOf('let max_distance');
  const to = original.indexOf('max_distance;\n') + 'max_distance;'.length;
  const end = original.length;
  const edits = [
    { file: 'src/lib.rs', span: { start: from, end: to }, old_text: original.slice(from, to), new_text: 'let max_distance = fun_name(a_len, b_len, &distances);' },
    { file: 'src/lib.rs', span: { start: end, end }, old_text: '', new_text: '\nfn fun_name<Elem>(a_len: usize, b_len: usize, distances: &Vec<usize>) -> usize where Elem: Eq + Hash + Clone {\n    let max_distance = a_len + b_len;\n    *distances[0] = max_distance;\n    max_distance\n}\n' },
  ];
  const error = t.throws(() => checkExtractedSignature(edits, 'fun_name', bytes, from, to)) as any;
  t.is(error.code, 'UnsupportedByAdapter');
  t.is(error.details.reason, 'generic parameter the call cannot infer');
  // Without the stray generic, the same edit is repaired: no `*` before the element, `&mut` where the body writes.
  edits[1]!.new_text = edits[1]!.new_text.replace('<Elem>', '').replace(' where Elem: Eq + Hash + Clone', '');
  const fixed = checkExtractedSignature(edits, 'fun_name', bytes, from, to).map((e) => e.new_text).join('\n');
  t.true(fixed.includes('fun_name(a_len, b_len, &mut distances)') && fixed.includes('distances: &mut Vec<usize>') && fixed.includes('    distances[0] = max_distance;'), fixed);
});
