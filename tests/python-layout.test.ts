// End to end on a real package layout (src/, re-exporting __init__, tests through the package): each pattern is renamed with
// `--verify tests`, the package's own pytest suite must pass on the result, and the old name must be gone from the code.
import test, { type ExecutionContext } from 'ava';
import { execa } from './helpers/execa.js';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tug } from './helpers/cli.js';
import { PROJECT_ROOT } from './helpers/golden.js';
import { fixtureRepo } from './helpers/rename-cases.js';

const LAYOUT = path.join(PROJECT_ROOT, 'fixtures', 'python', 'layout_patterns');

interface LayoutCase {
  /** Which item of the pattern list it shows, and how. */
  title: string;
  file: string;
  /** Text whose first occurrence in `file` holds the cursor (at `shift` bytes into it). */
  find: string;
  shift?: number;
  to: string;
  /** Fewest edits a complete rename needs (every use the package's tests exercise). */
  minEdits: number;
  warnings?: string[];
}

const CASES: LayoutCase[] = [
  { title: 'keyword argument through a re-export, a module attribute, a module alias, functools.partial and **{…}', file: 'src/shop/io.py', find: 'flush=True)', to: 'newline', minEdits: 8, warnings: ['DictKeywordRenamed'] },
  { title: 'method through instance attributes set in __init__ and a local copy', file: 'src/shop/options.py', find: 'def enable', shift: 4, to: 'switch_on', minEdits: 12 },
  { title: 'method through declared chains, properties, Optional and string annotations', file: 'src/shop/widgets.py', find: 'def describe', shift: 4, to: 'summarize', minEdits: 7 },
  { title: 'method reached through a TYPE_CHECKING import and a return annotation', file: 'src/shop/report.py', find: 'def total', shift: 4, to: 'count', minEdits: 2 },
  { title: 'method through classmethod constructors (Self, cls) and factories', file: 'src/shop/options.py', find: 'def is_on', shift: 4, to: 'has', minEdits: 6 },
  { title: 'a rename started on super().m() renames the hierarchy', file: 'src/shop/widgets.py', find: 'super().render', shift: 8, to: 'draw', minEdits: 8 },
  { title: 'method of a class used through an assigned alias and a module alias', file: 'src/shop/registry.py', find: 'def pop_all', shift: 4, to: 'take_all', minEdits: 3 },
  { title: 'function brought by a star import of star imports without __all__', file: 'src/shop/kinds/basic.py', find: 'def make_kind', shift: 4, to: 'new_kind', minEdits: 4 },
  { title: 'method of a class used as a decorator', file: 'src/shop/decorated.py', find: 'def cache_clear', shift: 4, to: 'forget', minEdits: 2 },
  { title: "method reached through __call__ of a decorator class", file: 'src/shop/decorated.py', find: 'def bind', shift: 4, to: 'attach', minEdits: 2 },
  { title: 'method reached through the annotated return type of a replacing decorator', file: 'src/shop/decorated.py', find: 'def invoke', shift: 4, to: 'run', minEdits: 2 },
  { title: 'function wrapped by a replacing decorator warns and names it', file: 'src/shop/decorated.py', find: 'def greet', shift: 4, to: 'salute', minEdits: 5, warnings: ['ReplacingDecorator'] },
  { title: 'function kept by functools.wraps', file: 'src/shop/decorated.py', find: 'def slow_double', shift: 4, to: 'twice', minEdits: 6 },
  { title: '@overload and @t.overload group', file: 'src/shop/decorated.py', find: 'def scale', shift: 4, to: 'resize', minEdits: 8 },
  { title: 'method of a @dataclass', file: 'src/shop/decorated.py', find: 'def label', shift: 4, to: 'tag', minEdits: 2 },
];

let pytest: Promise<boolean> | undefined;

/** pytest must be importable by the interpreter tug verifies with; under CI its absence fails the test. */
async function requirePytest(t: ExecutionContext): Promise<boolean> {
  pytest ??= execa('python3', ['-c', 'import pytest'], { reject: false, stdin: 'ignore' }).then((r) => r.exitCode === 0);
  if (await pytest) return true;
  if (process.env['CI']) t.fail('python3 cannot import pytest');
  else {
    t.log('SKIPPED (not CI): python3 cannot import pytest');
    console.warn(`[tug tests] SKIPPED ${t.title}: python3 cannot import pytest`);
    t.pass();
  }
  return false;
}

async function lineCol(file: string, find: string, shift: number): Promise<string> {
  const text = await readFile(path.join(LAYOUT, file));
  const at = text.indexOf(find);
  if (at < 0) throw new Error(`${find} is not in ${file}`);
  const offset = at + shift;
  const before = text.subarray(0, offset);
  const line = before.toString('utf8').split('\n').length;
  return `${file}:${line}:${offset - (before.lastIndexOf(10) + 1) + 1}`;
}

async function pythonFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.py')).map((e) => path.join(e.parentPath, e.name));
}

for (const c of CASES) {
  test(`python layout: ${c.title}`, async (t) => {
    if (!(await requirePytest(t))) return;
    const at = await lineCol(c.file, c.find, c.shift ?? 0);
    const old = c.find.slice(c.shift ?? 0).match(/^[A-Za-z_]\w*/)![0];
    const repo = await fixtureRepo('python', 'layout_patterns');
    const run = await tug(repo.root, ['rename', at, c.to, '--verify', 'tests'], { env: { TUG_DAEMON_AUTOSTART: '0' } });
    t.is(run.exitCode, 0, run.stdout);
    t.is(run.json.verification.status, 'passed', run.stdout);
    t.true(run.json.verification.checks.some((check: { name: string; status: string }) => check.name === 'tests' && check.status === 'passed'), 'the package tests ran');
    t.true(run.json.summary.edits_count >= c.minEdits, `${run.json.summary.edits_count} edits, at least ${c.minEdits} expected`);
    const codes = (run.json.warnings ?? []).map((w: { code: string }) => w.code);
    for (const code of c.warnings ?? []) t.true(codes.includes(code), `warning ${code} in ${codes.join(', ')}`);
    await writeFile(path.join(repo.root, '.tug-test.diff'), run.json.patch.unified_diff);
    await repo.git('apply', '.tug-test.diff');
    const word = new RegExp(`\\b${old}\\b`);
    const left: string[] = [];
    for (const file of await pythonFiles(repo.root)) {
      (await readFile(file, 'utf8')).split('\n').forEach((line, i) => word.test(line) && left.push(`${path.relative(repo.root, file)}:${i + 1}: ${line.trim()}`));
    }
    t.deepEqual(left, [], `${old} is left in the code`);
    await repo.cleanup();
  });
}
