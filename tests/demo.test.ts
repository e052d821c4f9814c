// The README's first quick-start command runs this demo; it must keep working at every commit.
import test from 'ava';
import { execa } from './helpers/execa.js';
import { fileURLToPath } from 'node:url';

test('the bundled demo renames across files with verification, applies, undoes, and applies a patchset', async (t) => {
  const demo = fileURLToPath(new URL('../../bin/tug-demo', import.meta.url));
  const run = await execa('node', [demo], { reject: false });
  t.is(run.exitCode, 0, run.stdout + run.stderr);
  t.regex(run.stdout, /check tests: passed/);
  t.regex(run.stdout, /branch tug\/rename\/total_value-to-inventory_value/);
  t.regex(run.stdout, /call {7}inventory\/report.py:6:41/);
  t.regex(run.stdout, /branch tug\/patch\/total_value-inventory_value \(7 edits, verification passed\)/);
  t.regex(run.stdout, /git status after undo: \(clean\)/);
});
