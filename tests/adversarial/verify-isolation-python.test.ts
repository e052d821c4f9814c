// `--verify tests` must test the sandbox's code, never the user's checkout: in each usual development set-up (an
// editable install, a finder hook, a stale copy, PYTHONPATH at the working tree, …) a change that breaks the package
// fails verification or is refused as not isolated, and never passes.
import test from 'ava';
import { execa } from '../helpers/execa.js';
import { cp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { patchset, tug } from '../helpers/cli.js';
import { makeRepo, NO_PYTEST_PLUGINS, repoState, tempDir, type TestRepo } from '../helpers/repo.js';

const configHome = await tempDir('tug-verify-isolation-config-');

const CORE = 'def area(w, h):\n    return w * h\n';
const TEST = 'from pkg import area\n\n\ndef test_area():\n    assert area(2, 3) == 6\n';
// The pytest settings block two plugins a Python install often auto-loads (helpers/repo.ts's NO_PYTEST_PLUGINS), which
// cost every pytest start here about a CPU second and matter to no set-up below.
const SRC_LAYOUT = {
  'pyproject.toml': `[project]\nname = "pkg"\nversion = "0"\n\n[tool.pytest.ini_options]\naddopts = "${NO_PYTEST_PLUGINS}"\n`,
  'src/pkg/__init__.py': 'from .core import area\n',
  'src/pkg/core.py': CORE,
};
/** The change under verification makes the package's main function raise. */
const BREAK = patchset([{ file: 'src/pkg/core.py', line: 2, col: 5, old_text: 'return w * h', new_text: 'raise RuntimeError("broken")' }]);

interface Venv {
  dir: string;
  python: string;
  site: string;
}

/** A real venv that sees the machine's pytest (--system-site-packages works offline). */
async function makeVenv(): Promise<Venv> {
  const dir = await tempDir('tug-venv-');
  await execa('python3', ['-m', 'venv', '--system-site-packages', '--without-pip', dir]);
  const python = path.join(dir, 'bin', 'python');
  const site = (await execa(python, ['-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'])).stdout.trim();
  return { dir, python, site };
}

/** What setuptools' editable wheel writes: a .pth that installs a finder mapping `pkg` to the working tree. */
async function installFinderHook(venv: Venv, repo: TestRepo, front: boolean): Promise<void> {
  const finder = [
    'import importlib.util, sys',
    `MAPPING = {"pkg": ${JSON.stringify(path.join(repo.root, 'src', 'pkg'))}}`,
    'class _EditableFinder:',
    '    @classmethod',
    '    def find_spec(cls, fullname, path=None, target=None):',
    '        if fullname in MAPPING:',
    '            root = MAPPING[fullname]',
    '            return importlib.util.spec_from_file_location(fullname, root + "/__init__.py", submodule_search_locations=[root])',
    '        return None',
    'def install():',
    `    ${front ? 'sys.meta_path.insert(0, _EditableFinder)' : 'sys.meta_path.append(_EditableFinder)'}`,
    '',
  ].join('\n');
  await writeFile(path.join(venv.site, '__editable___pkg_0_finder.py'), finder);
  await writeFile(path.join(venv.site, '__editable__.pkg-0.pth'), 'import __editable___pkg_0_finder; __editable___pkg_0_finder.install()\n');
}

interface Case {
  files: Record<string, string>;
  setUp(venv: Venv, repo: TestRepo): Promise<Record<string, string> | void>;
  /** The one outcome this set-up must give; otherwise failing tests or a refusal both do. */
  code?: 'VerificationFailed' | 'VerificationNotIsolated';
  /** Extra arguments of the verified call (a configured test command). */
  args?: string[];
}

const pth = async (venv: Venv, repo: TestRepo) => writeFile(path.join(venv.site, '__editable__.pkg-0.pth'), `${path.join(repo.root, 'src')}\n`);

const CASES: Record<string, Case> = {
  'an editable install (.pth at the working tree)': { files: { ...SRC_LAYOUT, 'tests/test_area.py': TEST }, setUp: pth, code: 'VerificationFailed' },
  'an __editable__ finder hook (appended, as setuptools does)': {
    files: { ...SRC_LAYOUT, 'tests/test_area.py': TEST },
    setUp: (venv, repo) => installFinderHook(venv, repo, false),
    code: 'VerificationFailed',
  },
  'a finder hook ahead of every path entry': {
    files: { ...SRC_LAYOUT, 'tests/test_area.py': TEST },
    setUp: (venv, repo) => installFinderHook(venv, repo, true),
    code: 'VerificationNotIsolated',
  },
  'a finder hook ahead of every path entry, with a configured test command': {
    files: { ...SRC_LAYOUT, 'tests/test_area.py': TEST },
    setUp: (venv, repo) => installFinderHook(venv, repo, true),
    code: 'VerificationNotIsolated',
    args: ['--test-command', JSON.stringify(['{python}', '-m', 'pytest', '-q'])],
  },
  'a stale copy in site-packages': {
    files: { ...SRC_LAYOUT, 'tests/test_area.py': TEST },
    setUp: (venv, repo) => cp(path.join(repo.root, 'src', 'pkg'), path.join(venv.site, 'pkg'), { recursive: true }),
    code: 'VerificationFailed',
  },
  "the caller's PYTHONPATH at the working tree": {
    files: { ...SRC_LAYOUT, 'tests/test_area.py': TEST },
    setUp: async (_venv, repo) => ({ PYTHONPATH: path.join(repo.root, 'src') }),
    code: 'VerificationFailed',
  },
  'tests inside the package': { files: { ...SRC_LAYOUT, 'src/pkg/tests/test_area.py': TEST }, setUp: pth },
  'a conftest.py at the root': { files: { ...SRC_LAYOUT, 'conftest.py': '', 'tests/test_area.py': TEST }, setUp: pth },
  'a pytest.ini with pythonpath = (helpers, not the package)': {
    files: { ...SRC_LAYOUT, 'pytest.ini': `[pytest]\npythonpath = tests/helpers\naddopts = ${NO_PYTEST_PLUGINS}\n`, 'tests/helpers/shapes.py': 'SIDES = (2, 3)\n', 'tests/test_area.py': `from shapes import SIDES\n${TEST}` },
    setUp: pth,
  },
};

for (const [name, setup] of Object.entries(CASES)) {
  test(`a change that breaks the package never passes verification: ${name}`, async (t) => {
    const repo = await makeRepo(setup.files);
    const venv = await makeVenv();
    const extraEnv = (await setup.setUp(venv, repo)) ?? {};
    // The set-up is real: the unchanged package passes in the user's checkout, imported from there.
    const plain = await execa(venv.python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], { cwd: repo.root, env: extraEnv, reject: false });
    t.is(plain.exitCode, 0, plain.stdout);
    const before = await repoState(repo);
    const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'tests', '--python', venv.python, ...(setup.args ?? []), '--json'], {
      env: { XDG_CONFIG_HOME: configHome, TUG_DAEMON_AUTOSTART: '0', ...extraEnv },
      input: BREAK,
    });
    t.is(run.exitCode, 5, run.stdout + run.stderr);
    if (setup.code) t.is(run.json.error.code, setup.code, run.stdout);
    else t.true(['VerificationFailed', 'VerificationNotIsolated'].includes(run.json.error.code), run.stdout);
    if (run.json.error.code === 'VerificationFailed') {
      const tests = run.json.error.details.verification.checks.find((c: { name: string }) => c.name === 'tests');
      t.regex(tests.output, /RuntimeError: broken/);
    } else {
      t.is(run.json.error.details.package, 'pkg');
      t.is(run.json.error.details.path, path.join(repo.root, 'src', 'pkg', '__init__.py'));
    }
    t.is(await repoState(repo), before);
    await rm(venv.dir, { recursive: true, force: true });
    await repo.cleanup();
  });
}

test('a package that imports from the sandbox passes: nothing is refused where nothing points elsewhere', async (t) => {
  const repo = await makeRepo({ ...SRC_LAYOUT, 'tests/test_area.py': TEST });
  const venv = await makeVenv();
  await pth(venv, repo);
  const fine = patchset([{ file: 'src/pkg/core.py', line: 2, col: 12, old_text: 'w * h', new_text: 'h * w' }]);
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'tests', '--python', venv.python, '--json'], {
    env: { XDG_CONFIG_HOME: configHome, TUG_DAEMON_AUTOSTART: '0' },
    input: fine,
  });
  t.is(run.exitCode, 0, run.stdout + run.stderr);
  t.is(run.json.verification.checks.find((c: { name: string }) => c.name === 'tests').status, 'passed');
  await rm(venv.dir, { recursive: true, force: true });
  await repo.cleanup();
});
