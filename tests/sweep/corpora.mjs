// The real projects the sweep runs tug on: Debian packages that ship their own tests, copied into git repositories
// under /tmp (nothing of them is committed to tug). Each corpus says where its code is and how to run its tests.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const WORK = process.env.SWEEP_DIR ?? '/tmp/tug-sweep';
export const PYTHON = '/usr/bin/python3';
const DIST = '/usr/lib/python3/dist-packages';
const PYTEST = ['{python}', '-m', 'pytest', '-q', '-x', '-p', 'no:cacheprovider'];

/** name → { debian, copy: [paths under dist-packages], tests: pytest arguments, testDirs: where positions are not drawn }. */
export const CORPORA = {
  toolz: { debian: 'python3-toolz', copy: ['toolz'], tests: ['toolz'] },
  colorama: { debian: 'python3-colorama', copy: ['colorama'], tests: ['colorama'] },
  bs4: { debian: 'python3-bs4', copy: ['bs4'], tests: ['bs4'] },
  isodate: { debian: 'python3-isodate', copy: ['isodate'], tests: ['isodate'] },
  simplejson: { debian: 'python3-simplejson', copy: ['simplejson'], tests: ['simplejson'] },
  fixtures: { debian: 'python3-fixtures', copy: ['fixtures'], tests: ['fixtures'] },
  iso8601: { debian: 'python3-iso8601', copy: ['iso8601'], tests: ['iso8601'] },
  webencodings: { debian: 'python3-webencodings', copy: ['webencodings'], tests: ['webencodings/tests.py'] },
  'lazr.uri': { debian: 'python3-lazr.uri', copy: ['lazr/uri'], tests: ['lazr/uri'] },
  // Its tests are doctest files that a unittest load_tests hook collects, which pytest does not run.
  wadllib: { debian: 'python3-wadllib', copy: ['wadllib'], argv: ['{python}', '-m', 'unittest', '-q', 'wadllib.tests.test_docs'] },
  // test_benchmark and one test of test_core need pytest-benchmark's fixture, which Debian does not ship with it.
  multipledispatch: { debian: 'python3-multipledispatch', copy: ['multipledispatch'], tests: ['multipledispatch', '--ignore=multipledispatch/tests/test_benchmark.py', '--deselect', 'multipledispatch/tests/test_core.py::test_multipledispatch'] },
  // IntegrationTests start `python -m pyflakes` as a subprocess, which finds the system's copy, not the repository's.
  pyflakes: { debian: 'python3-pyflakes', copy: ['pyflakes'], tests: ['pyflakes', '-k', 'not IntegrationTests'] },
  mock: { debian: 'python3-mock', copy: ['mock'], tests: ['mock/tests/testasync.py', 'mock/tests/testcallable.py', 'mock/tests/testhelpers.py', 'mock/tests/testmagicmethods.py', 'mock/tests/testmock.py', 'mock/tests/testpatch.py', 'mock/tests/testsealable.py', 'mock/tests/testsentinel.py', 'mock/tests/testwith.py'] },
  // The JSON-Schema-Test-Suite files are not shipped.
  jsonschema: { debian: 'python3-jsonschema', copy: ['jsonschema'], tests: ['jsonschema', '--ignore=jsonschema/tests/test_jsonschema_test_suite.py'] },
  // Rust crates without dependencies; their benches need nightly (`#![feature(test)]`) and are left out.
  strsim: { rust: true, debian: 'librust-strsim-dev', crate: 'strsim-0.10.0' },
  'percent-encoding': { rust: true, debian: 'librust-percent-encoding-dev', crate: 'percent-encoding-2.2.0' },
  scopeguard: { rust: true, debian: 'librust-scopeguard-dev', crate: 'scopeguard-1.1.0' },
  shlex: { rust: true, debian: 'librust-shlex-dev', crate: 'shlex-1.1.0' },
  itoa: { rust: true, debian: 'librust-itoa-dev', crate: 'itoa-1.0.1' },
  // Crates with many modules and `use` items, for organize-imports (tests/sweep/rust-imports.mjs); their
  // dependencies come from the same registry (not tried: num-traits 0.2.15, whose tests today's rustc rejects, and
  // ryu 1.0.2, whose tests want rand 0.5). textwrap has a rustfmt.toml, and its unit tests' termion 2 is not in
  // Debian 12: the copy asks for Debian's termion 1.5, which has the colours they use.
  semver: { rust: true, debian: 'librust-semver-dev', crate: 'semver-1.0.14' },
  'unicode-normalization': { rust: true, debian: 'librust-unicode-normalization-dev', crate: 'unicode-normalization-0.1.22' },
  textwrap: { rust: true, debian: 'librust-textwrap-dev', crate: 'textwrap-0.16.0', also: ['librust-termion-dev'], manifest: (t) => t.replace(/(\.termion\]\nversion = )"2\.0\.1"/, '$1"1.5"') },
  // The regex repository's rustfmt.toml, which the crate's package does not ship: with it cargo fmt leaves the
  // sources as they are, so organize-imports' results can be compared with cargo fmt's.
  'regex-syntax': { rust: true, debian: 'librust-regex-syntax-dev', crate: 'regex-syntax-0.6.27', files: { 'rustfmt.toml': 'max_width = 79\nuse_small_heuristics = "max"\n' } },
};
const REGISTRY = '/usr/share/cargo/registry';

/**
 * `nice -n …` that brings a command to niceness 15 exactly: everything the sweep starts runs there, and a sweep that
 * is itself started under `nice -n 15` does not push its children down to 19 (where a busy machine starves them).
 */
export function niced() {
  const current = os.getPriority();
  return current >= 15 ? [] : ['nice', '-n', String(15 - current)];
}

/** spawnSync of argv under niced(). */
export function spawnNiced(argv, options) {
  const full = [...niced(), ...argv];
  return spawnSync(full[0], full.slice(1), options);
}

export function git(cwd, args, options = {}) {
  const run = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 << 20, ...options });
  if (run.status !== 0 && !options.allowFailure) throw new Error(`git ${args.join(' ')} in ${cwd}: ${run.stderr}`);
  return run.stdout.trim();
}

/** The test command of a corpus as tug's --test-command takes it ({python} stands for the interpreter). */
export function testArgv(corpus) {
  return CORPORA[corpus].argv ?? [...PYTEST, ...CORPORA[corpus].tests];
}

/** Run a corpus's tests in `dir`; { green, output }. */
export function runTests(corpus, dir, timeoutSec = 300) {
  if (CORPORA[corpus].rust) return cargoTests(dir, timeoutSec);
  const argv = testArgv(corpus).map((a) => (a === '{python}' ? PYTHON : a));
  const run = spawnNiced(argv, {
    cwd: dir, encoding: 'utf8', timeout: timeoutSec * 1000, maxBuffer: 64 << 20,
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PYTHONPATH: dir },
  });
  return { green: run.status === 0, status: run.status, signal: run.signal, output: `${run.stdout ?? ''}${run.stderr ?? ''}`.slice(-3000) };
}

/**
 * `cargo test`, offline: it compiles the library, its tests, examples and doctests (benches are left out of the
 * copies), so a change that does not compile fails here as under `cargo check --all-targets`, which it replaces.
 */
function cargoTests(dir, timeoutSec) {
  const env = { ...process.env, CARGO_TARGET_DIR: path.join(dir, 'target'), CARGO_TERM_COLOR: 'never' };
  let output = '';
  for (const args of [['test', '--offline', '-q']]) {
    const run = spawnNiced(['cargo', ...args], { cwd: dir, encoding: 'utf8', timeout: timeoutSec * 1000, maxBuffer: 64 << 20, env });
    output += `${run.stdout ?? ''}${run.stderr ?? ''}`;
    if (run.status !== 0) return { green: false, status: run.status, signal: run.signal, output: output.slice(-3000) };
  }
  return { green: true, status: 0, output: output.slice(-3000) };
}

/** A crate from Debian's registry as a standalone repository: no benches, sources from the same registry only. */
function copyCrate(spec, repo) {
  cpSync(path.join(REGISTRY, spec.crate), repo, { recursive: true, filter: (src) => !/\/(benches|target)(\/|$)|\.cargo-checksum\.json$/.test(src) });
  const toml = path.join(repo, 'Cargo.toml');
  let manifest = readFileSync(toml, 'utf8').replace(/\n\[\[bench\]\][^[]*/g, '\n');
  writeFileSync(toml, spec.manifest ? spec.manifest(manifest) : manifest);
  for (const [file, text] of Object.entries(spec.files ?? {})) writeFileSync(path.join(repo, file), text);
  mkdirSync(path.join(repo, '.cargo'), { recursive: true });
  writeFileSync(path.join(repo, '.cargo', 'config.toml'), `[source.crates-io]\nreplace-with = "debian"\n[source.debian]\ndirectory = "${REGISTRY}"\n`);
}

/**
 * The corpus's repository (created on first use: the package's files in one commit on `main`), its base commit and
 * its baseline test result; null when the package is not installed and cannot be.
 */
export function corpusRepo(corpus) {
  const spec = CORPORA[corpus];
  const base = path.join(WORK, 'corpora', corpus);
  const repo = path.join(base, 'repo');
  const meta = path.join(base, 'meta.json');
  if (existsSync(meta)) return { ...JSON.parse(readFileSync(meta, 'utf8')), repo };
  const installed = (pkg) => spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' }).stdout.includes('ok installed');
  const present = () => (spec.rust ? existsSync(path.join(REGISTRY, spec.crate)) && (spec.also ?? []).every(installed) : spec.copy.every((p) => existsSync(path.join(DIST, p))));
  // The sweep's checks of a Python result need pytest (the package's tests) and pyflakes (check.mjs).
  const pytest = () => spec.rust || spawnSync(PYTHON, ['-c', 'import pytest, pyflakes'], { encoding: 'utf8' }).status === 0;
  if (!present() || !pytest()) {
    const install = spawnSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', spec.debian, ...(spec.also ?? []), ...(spec.rust ? [] : ['python3-pytest', 'python3-pyflakes'])], {
      encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (install.status !== 0 || !present() || !pytest()) return null;
  }
  rmSync(base, { recursive: true, force: true });
  mkdirSync(repo, { recursive: true });
  if (spec.rust) copyCrate(spec, repo);
  for (const p of spec.rust ? [] : spec.copy) {
    mkdirSync(path.dirname(path.join(repo, p)), { recursive: true });
    cpSync(path.join(DIST, p), path.join(repo, p), { recursive: true, filter: (src) => !src.includes('__pycache__') });
  }
  writeFileSync(path.join(repo, '.gitignore'), '__pycache__/\n*.pyc\n.pytest_cache/\n.ropeproject/\ntarget/\n');
  // Cargo.lock first, so that the commit has it and no check writes it into the tree.
  if (spec.rust) spawnSync('cargo', ['generate-lockfile', '--offline'], { cwd: repo, encoding: 'utf8' });
  git(repo, ['init', '-q', '-b', 'main']);
  git(repo, ['add', '-A']);
  git(repo, ['-c', 'user.name=sweep', '-c', 'user.email=sweep@localhost', 'commit', '-q', '-m', `${spec.debian} as shipped`]);
  const version = spawnSync('dpkg-query', ['-W', '-f=${Version}', spec.debian], { encoding: 'utf8' }).stdout.trim();
  if (!spec.rust) checkImports(spec, corpus, repo);
  const baseline = runTests(corpus, repo);
  const info = { corpus, debian: spec.debian, version, commit: git(repo, ['rev-parse', 'HEAD']), green: baseline.green, baseline: baseline.output.slice(-400) };
  writeFileSync(meta, JSON.stringify(info, null, 2));
  return { ...info, repo };
}

function checkImports(spec, corpus, repo) {
  // The copy under test must be the one Python imports, not Debian's installed copy of the same package.
  const top = spec.copy[0].replace(/\//g, '.');
  const where = spawnSync(PYTHON, ['-c', `import ${top}, os; print(os.path.realpath(${top}.__path__[0] if hasattr(${top}, '__path__') else ${top}.__file__))`], {
    cwd: repo, encoding: 'utf8', env: { ...process.env, PYTHONPATH: repo },
  });
  if (!where.stdout.trim().startsWith(repo)) throw new Error(`${corpus}: ${top} imports from ${where.stdout.trim()}, not from ${repo}`);
}

/** The corpus's Python files that positions are drawn from: everything but tests and conftest. */
export function sourceFiles(repo, rust = false) {
  if (rust) return git(repo, ['ls-files', 'src/*.rs']).split('\n').filter(Boolean);
  return git(repo, ['ls-files', '*.py'])
    .split('\n')
    .filter((f) => f && !/(^|\/)(tests?|testing)(\/|$)|(^|\/)(test_[^/]*|[^/]*_test|conftest|tests)\.py$/.test(f));
}
