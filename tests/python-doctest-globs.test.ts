// Which docs files pytest's --doctest-glob collects: doctestCollector answers one-star globs without RE2 (issue 33
// step 19) and must answer every glob exactly as matchesGlob does.
import test from 'ava';
import { matchesGlob } from '../lib/core/glob.js';
import { doctestCollector } from '../lib/python/doctest-text.js';

const globs = ['test*.txt', './test*.txt', '*.txt', '*', 'docs/*.txt', './docs/*.rst', 'docs/*', '*/x.txt', 'a.b*', 'a+b*(1).txt', '*.md', 'README*', 'x*y', 't?st*.txt', 'docs/**/*.txt', '{a,b}*.txt', '[tx]*.txt', '**', 'test.txt', 'téßt*.tx☕'];
const paths = ['test.txt', 'test_a.txt', 'Lib/test/test_doctest.txt', 'tests/test.txt', 'docs/test_x.txt', 'docs/sub/a.txt', 'docs/a.rst', 'docs', 'a/x.txt', 'b/a/x.txt', 'a.bc', 'aXbc', 'a+b(1).txt', 'a+bzz(1).txt', 'README', 'README.md', 'src/README.rst', 'xy', 'xzzy', 'x/y', 'tst.txt', 'toast.txt', 'a_1.txt', 'téßt-1.tx☕', 'dir/téßt.tx☕', 'test.txt.bak', '.txt', 'x.txt'];

test('every glob, alone and together, collects exactly what matchesGlob matches', (t) => {
  for (const glob of globs) {
    const collected = doctestCollector([glob]);
    for (const path of paths) t.is(collected(path), matchesGlob(path, glob), `${glob} on ${path}`);
  }
  const all = doctestCollector(globs.slice(0, 4));
  for (const path of paths) t.is(all(path), globs.slice(0, 4).some((g) => matchesGlob(path, g)), path);
  t.false(doctestCollector([])('test.txt'));
});
