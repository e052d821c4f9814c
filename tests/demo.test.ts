// The README's first quick-start command runs this demo; it must keep working at every commit.
import test from 'ava';
import { execa } from 'execa';
import { fileURLToPath } from 'node:url';

test('the bundled demo runs a verified change, applies it and undoes it', async (t) => {
  const demo = fileURLToPath(new URL('../../bin/tug-demo', import.meta.url));
  const run = await execa('node', [demo], { reject: false });
  t.is(run.exitCode, 0, run.stdout + run.stderr);
  t.regex(run.stdout, /check tests: passed/);
  t.regex(run.stdout, /branch tug\/patch\/total_value-inventory_value/);
  t.regex(run.stdout, /git status after undo: \(clean\)/);
});
