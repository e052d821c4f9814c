// Each record under refs/notes/tug names the language tools that planned the operation, through the CLI as a user runs it: a Python change carries the
// worker's interpreter and LibCST versions (what the worker reported), a change of a text file only tug's and Node's.
import test from 'ava';
import { tug, patchset } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';
import { requireRustToolchain } from './helpers/toolchains.js';

const ENV = { TUG_NO_DAEMON: '1' };

test('a Python rename records the Python and LibCST versions its worker ran; a text edit records none', async (t) => {
  t.timeout(300_000);
  const repo = await makeRepo({ 'app.py': 'def total(items):\n    return sum(items)\n\n\nprint(total([1]))\n', 'notes.txt': 'alpha\n' });
  t.teardown(() => repo.cleanup());
  const made = await tug(repo.root, ['rename', 'app.py:1:5', 'sum_all', '--verify', 'none', '--json'], { env: ENV });
  t.is(made.exitCode, 0, made.stdout + made.stderr);
  const shown = await tug(repo.root, ['show', made.json.git.branch, '--json'], { env: ENV });
  const tools = shown.json.branch.steps[0].record.tools;
  // The interpreter tug resolves for this repository, as `tug toolchain python info` reports it.
  const python = (await tug(repo.root, ['toolchain', 'python', 'info', '--json'], { env: ENV })).json.python;
  t.is(tools.python, python.version);
  t.is(tools.libcst, python.libcst);
  t.truthy(tools.tug);
  t.is(tools.node, process.versions.node);

  const edited = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'none', '--json'], { env: ENV, input: patchset([{ file: 'notes.txt', line: 1, col: 1, old_text: 'alpha', new_text: 'beta' }]) });
  t.is(edited.exitCode, 0, edited.stdout + edited.stderr);
  const note = JSON.parse(await repo.git('notes', '--ref=refs/notes/tug', 'show', edited.json.git.commit));
  t.deepEqual(Object.keys(note.tools).sort(), ['node', 'tug']);
});

test('a Rust rename records the rust-analyzer version that planned it', async (t) => {
  t.timeout(600_000);
  if (!(await requireRustToolchain(t))) return;
  const repo = await makeRepo({
    'Cargo.toml': '[package]\nname = "shapes"\nversion = "0.1.0"\nedition = "2021"\n',
    'src/main.rs': 'pub fn area(w: u32, h: u32) -> u32 {\n    w * h\n}\n\nfn main() {\n    println!("{}", area(2, 3));\n}\n',
  });
  t.teardown(() => repo.cleanup());
  const made = await tug(repo.root, ['rename', 'src/main.rs:1:8', 'surface', '--verify', 'none', '--json'], { env: ENV });
  t.is(made.exitCode, 0, made.stdout + made.stderr);
  const shown = await tug(repo.root, ['show', made.json.git.branch, '--json'], { env: ENV });
  const doctor = await tug(repo.root, ['toolchain', 'rust', 'info', '--json'], { env: ENV });
  t.regex(shown.json.branch.steps[0].record.tools['rust-analyzer'] ?? '', /^\d+\.\d+/, JSON.stringify(shown.json.branch.steps[0].record.tools));
  t.true(JSON.stringify(doctor.json).includes(shown.json.branch.steps[0].record.tools['rust-analyzer']), doctor.stdout);
});
