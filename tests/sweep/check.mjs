// The sweep's independent check of a result (issue 28 §3), kept cheap so that many tries fit: one scratch checkout
// per corpus, reused from try to try (a checkout and a clean instead of a new worktree; Rust keeps its target/ so
// cargo builds incrementally), one interpreter for compile + pyflakes, and the base side of the pyflakes comparison
// computed once per corpus and file (the base commit never changes).
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORPORA, git, PYTHON, runTests, spawnNiced } from './corpora.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The reusable scratch checkout `name` next to the corpus repository, holding `commit` and nothing else. */
export function scratch(repo, commit, name = 'scratch') {
  const dir = path.join(path.dirname(repo), name);
  const fresh = () => {
    git(repo, ['worktree', 'remove', '--force', dir], { allowFailure: true });
    rmSync(dir, { recursive: true, force: true });
    git(repo, ['worktree', 'prune']);
    git(repo, ['worktree', 'add', '-q', '--detach', dir, commit]);
  };
  if (!existsSync(path.join(dir, '.git'))) fresh();
  else {
    const checkout = spawnSync('git', ['checkout', '-q', '-f', '--detach', commit], { cwd: dir, encoding: 'utf8' });
    if (checkout.status !== 0) fresh();
  }
  // target/ stays: it is ignored, holds only build output, and makes the next cargo run incremental.
  git(dir, ['clean', '-fdxq', '-e', 'target']);
  return dir;
}

/** Removes a scratch checkout (recheck.mjs's one-off ones; run.mjs keeps its own for the next try). */
export function dropScratch(repo, dir) {
  git(repo, ['worktree', 'remove', '--force', dir], { allowFailure: true });
  rmSync(dir, { recursive: true, force: true });
}

/** Compile `files` under `dir` and list the names pyflakes finds undefined: { syntax, undefined: Set }. */
export function staticCheck(dir, files) {
  const present = files.filter((f) => f.endsWith('.py') && existsSync(path.join(dir, f)));
  if (!present.length) return { syntax: null, undefined: new Set() };
  const run = spawnSync(PYTHON, ['-I', path.join(HERE, 'static_check.py'), dir, ...present], { cwd: '/', encoding: 'utf8', maxBuffer: 64 << 20 });
  if (run.status !== 0) throw new Error(`static_check.py: ${run.stderr}`);
  const out = JSON.parse(run.stdout);
  return { syntax: out.syntax, undefined: new Set(out.undefined) };
}

const baseFindings = new Map();
/** pyflakes' undefined names of one file at the corpus's base commit (in `repo`, which the sweep keeps on main). */
function baseUndefined(corpus, repo, file) {
  const key = `${corpus}\0${file}`;
  if (!baseFindings.has(key)) baseFindings.set(key, staticCheck(repo, [file]).undefined);
  return baseFindings.get(key);
}

/** pyflakes findings the change adds: those in `dir` that the same file at the base did not have. */
export function addedUndefined(corpus, repo, dir, files) {
  const after = staticCheck(dir, files);
  if (after.syntax) return { syntax: after.syntax, added: [] };
  const added = [...after.undefined].filter((m) => !baseUndefined(corpus, repo, m.slice(0, m.indexOf(': '))).has(m));
  return { syntax: null, added };
}

/** The corpus's modules at the base commit, outside its tests: the ones the import-state check loads on both sides. */
function baseModules(corpus, repo) {
  const files = git(repo, ['ls-files', '*.py']).split('\n').filter((f) => f && !/(^|\/)(tests?|testing)(\/|$)|(^|\/)test[^/]*\.py$|conftest\.py$/.test(f));
  return files.map((f) => f.replace(/\.py$/, '').replace(/\/__init__$/, '').replaceAll('/', '.')).filter((m) => !m.includes('-')).sort();
}

/** import_state.py's answer for `dir`: { sizes, failed }. */
export function importState(dir, modules) {
  const run = spawnSync(PYTHON, ['-I', path.join(HERE, 'import_state.py'), dir, ...modules], { cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 120_000, env: { PATH: process.env.PATH, PYTHONDONTWRITEBYTECODE: '1' } });
  if (run.status !== 0) return { error: `import_state.py: ${run.stderr || run.signal}`.slice(-1500) };
  return JSON.parse(run.stdout);
}

const baseStates = new Map();
/**
 * What importing the result loses against the base: containers built at import whose size changed (a registration
 * gone), and modules that imported at the base and no longer do. Paths that exist on one side only (a renamed or
 * moved name) are not compared. An empty list means nothing was lost.
 */
export function lostAtImport(corpus, repo, dir) {
  if (!baseStates.has(corpus)) {
    const modules = baseModules(corpus, repo);
    baseStates.set(corpus, { modules, state: importState(repo, modules) });
  }
  const base = baseStates.get(corpus);
  if (base.state.error) return [];
  const after = importState(dir, base.modules);
  if (after.error) return [after.error];
  const lost = [];
  for (const [key, size] of Object.entries(base.state.sizes)) {
    if (key in after.sizes && after.sizes[key] !== size) lost.push(`${key}: ${size} entries at the base, ${after.sizes[key]} after`);
  }
  for (const module of base.modules) {
    if (!(module in base.state.failed) && module in after.failed) lost.push(`${module} no longer imports (${after.failed[module]})`);
  }
  return lost;
}

// The version of evaluationChange's rules: a stored result checked by an older version is checked again (recheck.mjs).
export const EVALUATION_CHECK = 4;
const evaluations = new Map();
/**
 * For a Python inline of a local or an extract-variable (position `p`, read from the base in `repo`): what the
 * refactor changes in when and how often code runs or what a use reads (inline_evaluation.py, extract_evaluation.py),
 * or null. A property of the position, so it is asked once and holds for whichever tool refactored there.
 */
export function evaluationChange(corpus, repo, p) {
  if (CORPORA[corpus].rust) return null;
  let argv;
  if (p?.op === 'inline' && p.kind === 'local') argv = ['inline_evaluation.py', p.line, p.col];
  else if (p?.op === 'extract-variable') argv = ['extract_evaluation.py', p.line, p.col, p.end_line, p.end_col];
  else return null;
  const key = `${corpus}\0${p.op}\0${p.file}:${argv.slice(1).join(':')}`;
  if (!evaluations.has(key)) {
    const run = spawnSync(PYTHON, ['-I', path.join(HERE, argv[0]), path.join(repo, p.file), ...argv.slice(1).map(String)], { cwd: '/', encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`${argv[0]}: ${run.stderr}`);
    evaluations.set(key, JSON.parse(run.stdout).changes);
  }
  return evaluations.get(key);
}

/**
 * pyflakes, then the import state, on a result checked out in `dir` (`files` changed), against the base in `repo`:
 * the evidence each finds, for a result stored before the sweep ran them (recheck.mjs). `which` says which to run.
 */
export function namesAndImports(corpus, repo, dir, files, which = { pyflakes: true, importState: true }) {
  const found = [];
  if (which.pyflakes) {
    const { syntax, added } = addedUndefined(corpus, repo, dir, files);
    if (syntax) added.push(syntax);
    if (added.length) found.push(`pyflakes: the change leaves names undefined:\nE   ${added.join('\nE   ')}`);
  }
  if (which.importState && !found.length) {
    const lost = lostAtImport(corpus, repo, dir);
    if (lost.length) found.push(`import state: importing the package builds less than at the base:\nE   ${lost.join('\nE   ')}`);
  }
  return found;
}

/** Runs rope at position `p` in the checkout `dir` (tests/sweep/rope_op.py): its one-line JSON answer. */
export function ropeAt(dir, p) {
  const run = spawnNiced([PYTHON, path.join(HERE, 'rope_op.py'), dir, JSON.stringify(p)], { encoding: 'utf8', timeout: 600_000, maxBuffer: 64 << 20 });
  try {
    return JSON.parse(run.stdout.trim().split('\n').pop());
  } catch {
    return { status: 'crash', code: run.signal ? `killed (${run.signal})` : `exit ${run.status}`, reason: (run.stderr ?? '').slice(-500) };
  }
}

/**
 * Whether rope's inline at position `p` (read from the base in `repo`) is its InlineParameter: at a name that is a
 * parameter of its function rope writes the parameter's default into the calls instead of inlining the value, another
 * operation than the one asked for (rope_inline_kind.py).
 */
export function ropeInlinesParameter(corpus, repo, p) {
  if (CORPORA[corpus].rust || p?.op !== 'inline' || p.kind !== 'local') return false;
  const run = spawnSync(PYTHON, ['-I', path.join(HERE, 'rope_inline_kind.py'), path.join(repo, p.file), String(p.line), String(p.col)], { cwd: '/', encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`rope_inline_kind.py: ${run.stderr}`);
  return JSON.parse(run.stdout).parameter;
}

/** The record of a rope inline that was its InlineParameter: rope declined the inline asked for. */
export const ROPE_OTHER_OPERATION = { status: 'refused', class: 'refused', code: 'OtherOperation', reason: "rope's inline here is InlineParameter: it writes the parameter's default into the calls, not the value into the uses" };

/**
 * The independent check: every changed Python file compiles, the change leaves no name undefined that the base did
 * not (pyflakes), importing the package builds what it built at the base (lostAtImport), an inline or an extracted
 * variable keeps when and how often code runs (evaluationChange, given the position `p`), and the project's tests
 * pass in `dir`. `repo` holds the base (main) while this runs.
 */
export function check(corpus, repo, dir, files, p = null) {
  if (!CORPORA[corpus].rust) {
    const s = addedUndefined(corpus, repo, dir, files);
    if (s.syntax) return { compiles: false, green: false, output: s.syntax.slice(-1500) };
    if (s.added.length) return { compiles: true, green: false, output: `pyflakes: the change leaves names undefined:\nE   ${s.added.join('\nE   ')}` };
    const lost = lostAtImport(corpus, repo, dir);
    if (lost.length) return { compiles: true, green: false, output: `import state: importing the package builds less than at the base:\nE   ${lost.join('\nE   ')}` };
    const evaluation = evaluationChange(corpus, repo, p);
    if (evaluation) return { compiles: true, green: false, output: `evaluation: the ${p.op} changes when code runs or what it reads:\nE   ${evaluation}` };
  }
  const tests = runTests(corpus, dir);
  return { compiles: true, green: tests.green, output: tests.green ? '' : tests.output.slice(-1500) };
}
