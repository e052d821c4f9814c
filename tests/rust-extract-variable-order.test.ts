// extract-variable in Rust (rust-analyzer's extract_variable) binds the expression before its statement; where the
// statement evaluates it again on every iteration or only on some paths, tug refuses (shlex in the sweep: the
// `self.next_char()` of `while let Some(ch2) = self.next_char()` read once, and the crate's test failed).
// The two refusals go through one private daemon (rust-analyzer indexes the crate once).
import test from 'ava';
import { conditionalPlace } from '../lib/rust/extract-variable-order.js';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';
import { requireRustToolchain } from './helpers/toolchains.js';
import { withDaemon } from './helpers/warm-fixture.js';

const LIB = `pub struct Lexer<'a> {
    bytes: std::str::Bytes<'a>,
}

impl<'a> Lexer<'a> {
    fn next_char(&mut self) -> Option<u8> {
        self.bytes.next()
    }

    pub fn comment_len(&mut self) -> usize {
        let mut n = 0;
        while let Some(ch) = self.next_char() {
            if ch == b'\\n' {
                break;
            }
            n += 1;
        }
        n
    }
}

pub fn is_x(v: &[u8], i: usize) -> bool {
    i < v.len() && v[i] == b'x'
}

#[cfg(tug_never_set)]
mod inactive {
    pub fn stop() {
        std::process::abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexes() {
        let mut l = Lexer { bytes: "ab\\ncd".bytes() };
        assert_eq!(l.comment_len(), 2);
        assert!(!is_x(b"ab", 5));
    }
}
`;

const at = (needle: string, expr: string) => {
  const lines = LIB.split('\n');
  const i = lines.findIndex((l) => l.includes(needle));
  const col = lines[i]!.indexOf(expr) + 1;
  return `src/lib.rs:${i + 1}:${col}-${i + 1}:${col + expr.length}`;
};

test('extract-variable refuses a while condition, the right of &&, and a name rust-analyzer cannot give in code its cfg leaves out; nothing is written', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(900_000);
  const repo = await makeRepo({ '.gitignore': 'target\n', 'Cargo.toml': '[package]\nname = "lexer"\nversion = "0.1.0"\nedition = "2021"\n', 'src/lib.rs': LIB });
  try {
    await withDaemon(repo.root, async (env) => {
      for (const [range, says] of [
        [at('while let Some(ch)', 'self.next_char()'), 'a while condition'],
        [at('i < v.len() &&', 'v[i]'), 'the right of && or ||'],
      ] as const) {
        const run = await tug(repo.root, ['run', 'extract-variable', '--range', range, '--name', 'part', '--verify', 'tests', '--json'], { env });
        t.is(run.json?.error?.code, 'UnsafeRefactor', `${range}: ${run.stdout.slice(0, 2000)}`);
        t.is(run.json.error.details.reason, 'evaluated conditionally or repeatedly');
        t.true(run.json.error.message.includes(says), run.json.error.message);
      }
      // In code its cfg leaves out, rust-analyzer extracts but cannot rename what it made ("No references found at
      // position", semver's backport.rs in the sweep): a refusal with its reason, not an internal error.
      const inactive = await tug(repo.root, ['run', 'extract-variable', '--range', at('std::process::abort();', 'std::process::abort()'), '--name', 'part', '--verify', 'tests', '--json'], { env });
      t.is(inactive.json?.error?.code, 'UnsupportedByAdapter', inactive.stdout.slice(0, 2000));
      t.true(inactive.json.error.message.includes('No references found'), inactive.json.error.message);
      t.is(await repo.git('branch', '--list', 'tug/*'), '');
    });
  } finally {
    await repo.cleanup();
  }
});

test('the places that keep their evaluation: a statement, an if condition, a loop body, a block of a match arm', (t) => {
  const place = (code: string) => conditionalPlace(code, code.indexOf('EXPR'));
  t.is(place('fn f() { let a = g(EXPR); }'), null);
  t.is(place('fn f() { if EXPR > 1 { h() } }'), null);
  t.is(place('fn f() { while c { let x = EXPR; } }'), null);
  t.is(place('fn f() { match v { Some(x) => { EXPR } None => 0 } }'), null);
  t.is(place('fn f() { foo(&&x, EXPR); }'), null);
  t.is(place('fn f() { if a { 1 } else if EXPR { 2 } }'), 'an else-if condition, evaluated only when the branches before it are not taken');
  t.is(place('fn f() { let ok = a || (b && EXPR); }'), 'the right of && or ||, which may not evaluate it');
  t.is(place('fn f() { while go(|| { 1 }, EXPR) { } }'), 'a while condition, evaluated again on every iteration');
  t.is(place('fn f() { let s = "while"; g(EXPR); }'), null);
});
