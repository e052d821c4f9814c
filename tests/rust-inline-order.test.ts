// inline of a Rust local (rust-analyzer's inline_local_variable) where a variable its value reads changes before a use.
// strsim in the sweep: `let transposition_cost = … + (j - db - 1);` then a blank line, then `db = j;` in an `if`, then
// the use; the blank line hid the `let` from tug's check, the value was read after `db` changed, and the crate's tests
// overflowed. A plain value (`let old = db;`) had no check at all: inlined, it reads the new value without a word.
// The calls go through one private daemon (rust-analyzer indexes the crate once); rust-inline-call keeps inline's cold path.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';
import { requireRustToolchain } from './helpers/toolchains.js';
import { withDaemon } from './helpers/warm-fixture.js';

const LIB = `pub fn cost(a: &[u32]) -> u32 {
    let mut db = 0;
    let mut total = 0;
    for (j, x) in a.iter().enumerate() {
        let j = j as u32 + 1;
        let transposition = x + (j - db - 1);

        let old = db;
        if *x == 0 {
            db = j;
        }
        total += transposition + old;
    }
    total
}

pub fn area(w: u32, h: u32) -> u32 {
    let width = w;
    let scaled = width * 2;
    scaled * h + scaled
}

pub fn shifted(a: &[u32]) -> u32 {
    let mut base = 1;
    let start = base * 2;
    let mut total = 0;
    for x in a {
        total += x + start;
        base += 1;
    }
    total + base
}

#[cfg(test)]
mod tests {
    #[test]
    fn costs() {
        assert_eq!(super::cost(&[0, 3, 0, 5]), 14);
        assert_eq!(super::area(2, 3), 16);
        assert_eq!(super::shifted(&[1, 2]), 10);
    }
}
`;

const at = (needle: string) => {
  const lines = LIB.split('\n');
  const i = lines.findIndex((l) => l.includes(needle));
  return `src/lib.rs:${i + 1}:${lines[i]!.indexOf(needle) + 5}`;
};

test('inline refuses a value that reads a variable assigned before a use; a value whose variables stay put is inlined', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(900_000);
  const repo = await makeRepo({ '.gitignore': 'target\n', 'Cargo.toml': '[package]\nname = "osa"\nversion = "0.1.0"\nedition = "2021"\n', 'src/lib.rs': LIB });
  try {
    await withDaemon(repo.root, async (env) => {
      // The last: `base += 1` comes after the use in the text, but a later pass of the loop runs it before the use.
      for (const [place, variable] of [[at('let transposition'), 'db'], [at('let old'), 'db'], [at('let start'), 'base']] as const) {
        const run = await tug(repo.root, ['inline', '--at', place, '--verify', 'tests', '--json'], { env });
        t.is(run.json?.error?.code, 'UnsafeRefactor', `${place}: ${run.stdout.slice(0, 2000)}`);
        t.is(run.json.error.details.reason, 'value reads a variable changed before a use', run.stdout);
        t.true(run.json.error.message.includes(`read \`${variable}\` after \`${variable}\` may have changed`), run.json.error.message);
      }
      t.is(await repo.git('branch', '--list', 'tug/*'), '');
      const done = await tug(repo.root, ['inline', '--at', at('let width'), '--verify', 'tests', '--json'], { env });
      t.is(done.exitCode, 0, done.stdout);
      t.true((await repo.git('show', `${done.json.git.commit}:src/lib.rs`)).includes('    let scaled = w * 2;\n'));
      // Arithmetic on variables that stay put reads the same however often it is evaluated: inlined into both uses.
      const twice = await tug(repo.root, ['inline', '--at', at('let scaled'), '--verify', 'tests', '--json'], { env });
      t.is(twice.exitCode, 0, twice.stdout);
      const text = await repo.git('show', `${twice.json.git.commit}:src/lib.rs`);
      t.true(text.includes('    (width * 2) * h + (width * 2)\n'), text);
    });
  } finally {
    await repo.cleanup();
  }
});
