// The sweep: runs tug's refactors at seeded random positions of real projects and checks every result it calls ok
// by running the project's own tests on the result branch, independently of tug's verification (issue 28 §3).
// Usage: node tests/sweep/run.mjs --corpus toolz,bs4|all --op rename-symbol,…|all --seed 1 --per-op 30 [--rope] [--only N]
// Results go to $SWEEP_DIR/results/<corpus>.<op>.s<seed>.jsonl (one line per sample, resumable); report.mjs tabulates.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CORPORA, corpusRepo, git, PYTHON, runTests, sourceFiles, testArgv, WORK } from './corpora.mjs';
import { classifyTug, normalizeReason } from './classify.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
// SWEEP_TUG: a frozen copy of a build, so that rebuilding the worktree does not change tug in the middle of a sweep.
const TUG = process.env.SWEEP_TUG ?? path.join(HERE, '..', '..', 'bin', 'tug');
export const PYTHON_OPS = ['rename-symbol', 'move-symbol', 'change-signature', 'organize-imports', 'extract-variable', 'extract-function', 'inline'];
export const RUST_OPS = ['rename-symbol', 'organize-imports', 'extract-variable', 'extract-function', 'inline'];

function parseArgs(argv) {
  const out = { corpus: 'all', op: 'all', seed: 1, perOp: 20, rope: false, only: null };
  for (let i = 0; i < argv.length; i++) {
    const [k, v] = [argv[i], argv[i + 1]];
    if (k === '--corpus') (out.corpus = v), i++;
    else if (k === '--op') (out.op = v), i++;
    else if (k === '--seed') (out.seed = Number(v)), i++;
    else if (k === '--per-op') (out.perOp = Number(v)), i++;
    else if (k === '--only') (out.only = Number(v)), i++;
    else if (k === '--rope') out.rope = true;
    else throw new Error(`unknown argument ${k}`);
  }
  return out;
}

/** mulberry32: a small seeded generator, so a seed names the same sample on every machine. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function positions(repo, op, rust) {
  const script = path.join(HERE, rust ? 'rust_positions.py' : 'positions.py');
  const run = spawnSync(PYTHON, [script, repo, ...sourceFiles(repo, rust)], { encoding: 'utf8', maxBuffer: 256 << 20 });
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((p) => p.op === op);
}

/** A seeded shuffle of the positions (sorted first, so the order does not depend on the listing's). */
export function sample(all, seed, n) {
  const list = [...all].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  const next = rng(seed);
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list.slice(0, n);
}

function withNames(p) {
  const q = { ...p };
  if (p.op === 'move-symbol') q.destination = path.posix.join(path.posix.dirname(p.file), 'sweep_moved.py');
  if (p.op === 'extract-variable') q.new_name = 'sweep_v';
  if (p.op === 'extract-function') q.new_name = 'sweep_fn';
  return q;
}

export function tugArgs(p, corpus) {
  const at = `${p.file}:${p.line}:${p.col}`;
  const range = `${p.file}:${p.line}:${p.col}-${p.end_line}:${p.end_col}`;
  const specific = {
    'rename-symbol': () => ['--at', at, '--to', `${p.name}_sw`],
    'move-symbol': () => ['--at', at, '--destination', p.destination],
    'change-signature': () => ['--at', at, '--params', JSON.stringify(p.params)],
    'organize-imports': () => ['--file', p.file],
    'extract-variable': () => ['--range', range, '--name', p.new_name],
    'extract-function': () => ['--range', range, '--name', p.new_name],
    inline: () => ['--at', at],
  }[p.op]();
  if (CORPORA[corpus].rust) return ['run', p.op, ...specific, '--verify', 'tests', '--json'];
  return ['run', p.op, ...specific, '--verify', 'tests', '--python', PYTHON, '--test-command', JSON.stringify(testArgv(corpus)), '--json'];
}

const quote = (a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`);

/** A scratch checkout of `commit` next to the corpus (removed by the caller with dropScratch). */
export function scratch(repo, commit, name = 'scratch') {
  const dir = path.join(path.dirname(repo), name);
  git(repo, ['worktree', 'remove', '--force', dir], { allowFailure: true });
  rmSync(dir, { recursive: true, force: true });
  git(repo, ['worktree', 'prune']);
  git(repo, ['worktree', 'add', '-q', '--detach', dir, commit]);
  return dir;
}
export function dropScratch(repo, dir) {
  git(repo, ['worktree', 'remove', '--force', dir], { allowFailure: true });
  rmSync(dir, { recursive: true, force: true });
}

/** pyflakes' "undefined name" findings in `files` under `dir`, without line numbers (so that moved code compares). */
export function undefinedNames(dir, files) {
  const present = files.filter((f) => existsSync(path.join(dir, f)));
  if (!present.length) return new Set();
  // Run from elsewhere, so that the pyflakes corpus's own (changed) copy is not the pyflakes that runs.
  const run = spawnSync(PYTHON, ['-I', '-m', 'pyflakes', ...present.map((f) => path.join(dir, f))], { cwd: '/', encoding: 'utf8', maxBuffer: 64 << 20 });
  return new Set(run.stdout.split('\n').filter((l) => / undefined name /.test(l)).map((l) => l.slice(dir.length + 1).replace(/^([^:]+):\d+:(\d+:)? /, '$1: ')));
}

/**
 * Compile every changed Python file, look for names the change left undefined (pyflakes, against the same files
 * before it, in `baseDir`), and run the tests in `dir`: the independent check of a result.
 */
function check(corpus, dir, files, baseDir) {
  const py = files.filter((f) => f.endsWith('.py') && existsSync(path.join(dir, f)));
  const compile = spawnSync(PYTHON, ['-c', 'import sys\nfor f in sys.argv[1:]:\n    compile(open(f,"rb").read(), f, "exec")', ...py], { cwd: dir, encoding: 'utf8' });
  if (compile.status !== 0) return { compiles: false, green: false, output: compile.stderr.slice(-1500) };
  if (py.length && !CORPORA[corpus].rust) {
    const before = undefinedNames(baseDir, py);
    const added = [...undefinedNames(dir, py)].filter((m) => !before.has(m));
    if (added.length) return { compiles: true, green: false, output: `pyflakes: the change leaves names undefined:\nE   ${added.join('\nE   ')}` };
  }
  const tests = runTests(corpus, dir);
  return { compiles: true, green: tests.green, output: tests.green ? '' : tests.output.slice(-1500) };
}

function runTug(repo, corpus, p) {
  const args = tugArgs(p, corpus);
  const started = Date.now();
  const run = spawnSync('nice', ['-n', '15', TUG, ...args], {
    cwd: repo, encoding: 'utf8', timeout: 900_000, maxBuffer: 256 << 20,
    env: { ...process.env, TUG_NO_DAEMON: '1', TUG_DAEMON_AUTOSTART: '0' },
  });
  const result = classifyTug(run);
  result.ms = Date.now() - started;
  result.command = `cd ${repo} && TUG_NO_DAEMON=1 tug ${args.map(quote).join(' ')}`;
  if (result.class === 'ok' && result.commit) {
    const base = git(repo, ['rev-parse', 'main']);
    const files = git(repo, ['diff', '--name-only', base, result.commit]).split('\n').filter(Boolean);
    const dir = scratch(repo, result.commit);
    const c = check(corpus, dir, files, repo);
    dropScratch(repo, dir);
    result.pyflakes = !CORPORA[corpus].rust;
    result.class = c.green ? 'ok-green' : 'broken';
    if (!c.green) result.evidence = c.output;
    if (!c.green) result.diff = git(repo, ['diff', base, result.commit]).slice(0, 6000);
  }
  if (result.branch) git(repo, ['branch', '-D', result.branch], { allowFailure: true });
  return result;
}

function runRope(repo, corpus, p, base) {
  const dir = scratch(repo, base);
  const run = spawnSync('nice', ['-n', '15', PYTHON, path.join(HERE, 'rope_op.py'), dir, JSON.stringify(p)], { encoding: 'utf8', timeout: 600_000, maxBuffer: 64 << 20 });
  let r;
  try {
    r = JSON.parse(run.stdout.trim().split('\n').pop());
  } catch {
    r = { status: 'crash', code: run.signal ? `killed (${run.signal})` : `exit ${run.status}`, reason: (run.stderr ?? '').slice(-500) };
  }
  if (r.status === 'ok') {
    git(dir, ['add', '-A']);
    const files = git(dir, ['diff', '--cached', '--name-only']).split('\n').filter(Boolean);
    const c = check(corpus, dir, files, repo);
    r.class = c.green ? 'ok-green' : 'broken';
    if (!c.green) r.evidence = c.output;
  } else r.class = r.status === 'nochange' ? 'ok-nochange' : r.status;
  if (r.reason) r.group = normalizeReason(r.code ?? '', r.reason);
  dropScratch(repo, dir);
  return r;
}

/** The picked positions of one corpus and operation: the first `perOp` of the seeded shuffle. */
export function picks(corpus, op, seed, perOp) {
  const info = corpusRepo(corpus);
  if (!info) return { info, skipped: 'package not installable' };
  if (!info.green) return { info, skipped: 'tests not green before any change' };
  return { info, positions: sample(positions(info.repo, op, Boolean(CORPORA[corpus].rust)), seed, perOp).map(withNames) };
}

/** Run tug (and rope, when asked and the corpus is Python) at one picked position; the record run.mjs stores. */
export function sweepOne(info, corpus, p, { rope = false } = {}) {
  git(info.repo, ['checkout', '-q', '-f', 'main']);
  git(info.repo, ['clean', '-fdxq', '-e', '.git', '-e', 'target']);
  const tug = runTug(info.repo, corpus, p);
  return { tug, rope: rope && !CORPORA[corpus].rust ? runRope(info.repo, corpus, p, info.commit) : null };
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const corpora = args.corpus === 'all' ? Object.keys(CORPORA) : args.corpus.split(',');
  mkdirSync(path.join(WORK, 'results'), { recursive: true });
  for (const corpus of corpora) {
    const rust = Boolean(CORPORA[corpus].rust);
    const ops = args.op === 'all' ? (rust ? RUST_OPS : PYTHON_OPS) : args.op.split(',').filter((o) => (rust ? RUST_OPS : PYTHON_OPS).includes(o));
    for (const op of ops) {
      const { info, skipped, positions: picked } = picks(corpus, op, args.seed, args.perOp);
      if (skipped) {
        process.stderr.write(`sweep: ${corpus}: ${skipped}, skipped\n`);
        break;
      }
      const out = path.join(WORK, 'results', `${corpus}.${op}.s${args.seed}.jsonl`);
      const done = new Set(existsSync(out) ? readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).index) : []);
      picked.forEach((p, index) => {
        if (args.only !== null ? index !== args.only : done.has(index)) return;
        const { tug, rope } = sweepOne(info, corpus, p, { rope: args.rope });
        const repro = `node tests/sweep/run.mjs --corpus ${corpus} --op ${op} --seed ${args.seed} --per-op ${args.perOp} --only ${index}${args.rope && !rust ? ' --rope' : ''}`;
        const line = { corpus, op, seed: args.seed, index, position: p, tug, rope, repro, tug_build: process.env.SWEEP_TUG_COMMIT ?? null };
        if (args.only === null) appendFileSync(out, `${JSON.stringify(line)}\n`);
        process.stdout.write(`${corpus} ${op} #${index} ${p.file}:${p.line ?? ''}:${p.col ?? ''} tug=${tug.class}${tug.group ? ` (${tug.group})` : ''}${rope ? ` rope=${rope.class}` : ''} ${tug.ms}ms\n`);
        if (args.only !== null) process.stdout.write(`${JSON.stringify(line, null, 2)}\n`);
      });
    }
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) main();
