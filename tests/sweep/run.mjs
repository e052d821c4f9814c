// The sweep: runs tug's refactors at seeded random positions of real projects and checks every result it calls ok
// by running the project's own tests on the result branch, independently of tug's verification (issue 28 §3).
// Usage: node tests/sweep/run.mjs --corpus toolz,bs4|all --op rename-symbol,…|all --seed 1 --per-op 30 [--rope]
//          [--rope-per-op N] [--jobs N] [--warm] [--only N] [--redo caught,broken [--where-rope ok-green]]
// Results go to $SWEEP_DIR/results/<corpus>.<op>.s<seed>.jsonl (one line per sample, resumable); report.mjs tabulates.
// --rope-per-op runs rope on the first N picks only (the comparison needs a sample, not every try); --jobs runs that
// many corpora at once, each in its own process (corpora share nothing: own repository, scratch and tug session).
// --redo CLASSES runs again the stored picks whose tug class is one of CLASSES (after a fix) and replaces their lines;
// it runs nothing else; --where-rope CLASS narrows that to picks whose stored rope result has that class (the
// refusals where rope was green, after a change that widens an operation).
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CORPORA, corpusRepo, git, PYTHON, sourceFiles, spawnNiced, testArgv, WORK } from './corpora.mjs';
import { classifyTug, normalizeReason } from './classify.mjs';
import { check, EVALUATION_CHECK, ROPE_OTHER_OPERATION, ropeAt, ropeInlinesParameter, scratch } from './check.mjs';
import { daemon, tugEnv } from './warm.mjs';
import { rng } from './rust-inject.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
// SWEEP_TUG: a frozen copy of a build, so that rebuilding the worktree does not change tug in the middle of a sweep.
const TUG = process.env.SWEEP_TUG ?? path.join(HERE, '..', '..', 'bin', 'tug');
export const PYTHON_OPS = ['rename-symbol', 'move-symbol', 'change-signature', 'organize-imports', 'extract-variable', 'extract-function', 'inline'];
// assist: one of rust-analyzer's assists (tug assist), at a name or an expression, the id picked from what is offered there.
export const RUST_OPS = ['rename-symbol', 'move-symbol', 'change-signature', 'organize-imports', 'extract-variable', 'extract-function', 'inline', 'assist'];

function parseArgs(argv) {
  const out = { corpus: 'all', op: 'all', seed: 1, perOp: 20, rope: false, ropePerOp: Infinity, jobs: 1, warm: false, only: null, redo: [], whereRope: null };
  for (let i = 0; i < argv.length; i++) {
    const [k, v] = [argv[i], argv[i + 1]];
    if (k === '--corpus') (out.corpus = v), i++;
    else if (k === '--op') (out.op = v), i++;
    else if (k === '--seed') (out.seed = Number(v)), i++;
    else if (k === '--per-op') (out.perOp = Number(v)), i++;
    else if (k === '--only') (out.only = Number(v)), i++;
    else if (k === '--rope-per-op') (out.ropePerOp = Number(v)), i++;
    else if (k === '--jobs') (out.jobs = Number(v)), i++;
    else if (k === '--redo') (out.redo = v.split(',')), i++;
    else if (k === '--where-rope') (out.whereRope = v), i++;
    else if (k === '--rope') out.rope = true;
    else if (k === '--warm') out.warm = true;
    else throw new Error(`unknown argument ${k}`);
  }
  return out;
}

/** Every eligible position of a corpus, listed once per corpus commit and position script (then read from a cache). */
function positions(info, op, rust) {
  const script = path.join(HERE, rust ? 'rust_positions.py' : 'positions.py');
  const stamp = `${info.commit}\n${readFileSync(script, 'utf8')}`;
  const cache = path.join(path.dirname(info.repo), 'positions.json');
  let all = existsSync(cache) ? JSON.parse(readFileSync(cache, 'utf8')) : null;
  if (all?.stamp !== stamp) {
    const run = spawnSync(PYTHON, [script, info.repo, ...sourceFiles(info.repo, rust)], { encoding: 'utf8', maxBuffer: 256 << 20 });
    if (run.status !== 0) throw new Error(run.stderr);
    all = { stamp, list: run.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
    writeFileSync(cache, JSON.stringify(all));
  }
  // The assists' positions are the names (rename-symbol's points) and the expressions (extract-variable's ranges).
  if (op === 'assist') return all.list.filter((p) => p.op === 'rename-symbol' || p.op === 'extract-variable').map((p) => ({ ...p, op, from: p.op }));
  return all.list.filter((p) => p.op === op);
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
  if (p.op === 'move-symbol') q.destination = p.file.endsWith('.rs') ? 'crate::sweep_moved' : path.posix.join(path.posix.dirname(p.file), 'sweep_moved.py');
  if (p.op === 'extract-variable') q.new_name = 'sweep_v';
  if (p.op === 'extract-function') q.new_name = 'sweep_fn';
  return q;
}

export function tugArgs(p, corpus) {
  const at = `${p.file}:${p.line}:${p.col}`;
  const range = `${p.file}:${p.line}:${p.col}-${p.end_line}:${p.end_col}`;
  const specific = {
    'rename-symbol': () => ['--at', at, '--to', `${p.name}_sw`],
    'move-symbol': () => ['--at', at, '--destination', p.destination, ...(p.keep_reexport ? ['--keep-reexport'] : [])],
    'change-signature': () => ['--at', at, '--params', JSON.stringify(p.params)],
    'organize-imports': () => ['--file', p.file],
    'extract-variable': () => ['--range', range, '--name', p.new_name],
    'extract-function': () => ['--range', range, '--name', p.new_name],
    inline: () => ['--at', at],
    assist: () => ['--at', p.from === 'extract-variable' ? range : at, '--id', p.assist_id],
  }[p.op]();
  if (CORPORA[corpus].rust) return ['run', p.op, ...specific, '--verify', 'tests', '--json'];
  return ['run', p.op, ...specific, '--verify', 'tests', '--python', PYTHON, '--test-command', JSON.stringify(testArgv(corpus)), '--json'];
}

const quote = (a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`);

/** The assist a try applies: one of the ids rust-analyzer offers at the position, picked by the try's own seed; null if none. */
function pickAssist(repo, corpus, p, warm, seed) {
  const at = p.from === 'extract-variable' ? `${p.file}:${p.line}:${p.col}-${p.end_line}:${p.end_col}` : `${p.file}:${p.line}:${p.col}`;
  const run = spawnNiced([TUG, 'assists', '--at', at, '--json'], { cwd: repo, encoding: 'utf8', timeout: 900_000, maxBuffer: 64 << 20, env: tugEnv(corpus, warm) });
  let offered;
  try {
    offered = JSON.parse(run.stdout).assists?.map((a) => a.id);
  } catch {
    return { failed: classifyTug(run) };
  }
  if (!offered) return { failed: classifyTug(run) };
  return { offered, id: offered.length ? offered[Math.floor(rng(seed)() * offered.length)] : null };
}

function runTug(repo, corpus, p, warm, seed = 0) {
  let offered;
  if (p.op === 'assist') {
    const picked = pickAssist(repo, corpus, p, warm, seed);
    if (picked.failed) return { ...picked.failed, mode: warm ? 'warm' : 'cold', listing: true };
    if (!picked.id) return { class: 'not-offered', offered: [], mode: warm ? 'warm' : 'cold' };
    p = { ...p, assist_id: picked.id };
    offered = picked.offered;
  }
  const args = tugArgs(p, corpus);
  const started = Date.now();
  const run = spawnNiced([TUG, ...args], {
    cwd: repo, encoding: 'utf8', timeout: 900_000, maxBuffer: 256 << 20,
    env: tugEnv(corpus, warm),
  });
  const result = classifyTug(run);
  result.ms = Date.now() - started;
  result.mode = warm ? 'warm' : 'cold';
  if (offered) (result.assist_id = p.assist_id), (result.offered = offered);
  result.command = `cd ${repo} && ${warm ? `XDG_RUNTIME_DIR=${tugEnv(corpus, true).XDG_RUNTIME_DIR}` : 'TUG_NO_DAEMON=1'} tug ${args.map(quote).join(' ')}`;
  if (result.class === 'ok' && result.commit) {
    const base = git(repo, ['rev-parse', 'main']);
    const files = git(repo, ['diff', '--name-only', base, result.commit]).split('\n').filter(Boolean);
    const checked = Date.now();
    const c = check(corpus, repo, scratch(repo, result.commit), files, p);
    result.check_ms = Date.now() - checked;
    result.pyflakes = !CORPORA[corpus].rust;
    result.importState = result.pyflakes;
    result.evaluation = EVALUATION_CHECK;
    result.class = c.green ? 'ok-green' : 'broken';
    if (!c.green) result.evidence = c.output;
    if (!c.green) result.diff = git(repo, ['diff', base, result.commit]).slice(0, 6000);
  }
  if (result.branch) git(repo, ['branch', '-D', result.branch], { allowFailure: true });
  return result;
}

function runRope(repo, corpus, p, base) {
  const started = Date.now();
  const dir = scratch(repo, base);
  let r = ropeAt(dir, p);
  if (r.status === 'ok' && ropeInlinesParameter(corpus, repo, p)) r = { ...ROPE_OTHER_OPERATION };
  if (r.status === 'ok') {
    git(dir, ['add', '-A']);
    const files = git(dir, ['diff', '--cached', '--name-only']).split('\n').filter(Boolean);
    const c = check(corpus, repo, dir, files, p);
    r.class = c.green ? 'ok-green' : 'broken';
    r.evaluation = EVALUATION_CHECK;
    r.pyflakes = r.importState = true;
    if (!c.green) r.evidence = c.output;
  } else r.class = r.status === 'nochange' ? 'ok-nochange' : r.status;
  if (r.reason) r.group = normalizeReason(r.code ?? '', r.reason);
  r.ms = Date.now() - started;
  return r;
}

/** The picked positions of one corpus and operation: the first `perOp` of the seeded shuffle. */
export function picks(corpus, op, seed, perOp) {
  const info = corpusRepo(corpus);
  if (!info) return { info, skipped: 'package not installable' };
  if (!info.green) return { info, skipped: 'tests not green before any change' };
  return { info, positions: sample(positions(info, op, Boolean(CORPORA[corpus].rust)), seed, perOp).map(withNames) };
}

/** Run tug (and rope, when asked and the corpus is Python) at one picked position; the record run.mjs stores. */
export function sweepOne(info, corpus, p, { rope = false, warm = false, seed = 0 } = {}) {
  git(info.repo, ['checkout', '-q', '-f', 'main']);
  git(info.repo, ['clean', '-fdxq', '-e', '.git', '-e', 'target']);
  const tug = runTug(info.repo, corpus, p, warm, seed);
  return { tug, rope: rope && !CORPORA[corpus].rust ? runRope(info.repo, corpus, p, info.commit) : null };
}

/** Sweeps one corpus, operation by operation; with --warm, through a daemon started for it and stopped after. */
function sweepCorpus(corpus, args) {
  const rust = Boolean(CORPORA[corpus].rust);
  const ops = args.op === 'all' ? (rust ? RUST_OPS : PYTHON_OPS) : args.op.split(',').filter((o) => (rust ? RUST_OPS : PYTHON_OPS).includes(o));
  let warmRepo = null; // the repository whose daemon this run started (--warm), stopped when the corpus is done
  try {
    for (const op of ops) sweepOp(corpus, op, args, () => warmRepo, (repo) => (warmRepo = repo));
  } finally {
    if (warmRepo) daemon(TUG, warmRepo, corpus, true, 'stop');
  }
}

/** Sweeps one operation of a corpus: its picks in order, skipping those already in the results file. */
function sweepOp(corpus, op, args, warmed, setWarmed) {
  const rust = Boolean(CORPORA[corpus].rust);
  const { info, skipped, positions: picked } = picks(corpus, op, args.seed, args.perOp);
  if (skipped) {
    process.stderr.write(`sweep: ${corpus}: ${skipped}, skipped\n`);
    return;
  }
  const out = path.join(WORK, 'results', `${corpus}.${op}.s${args.seed}.jsonl`);
  const stored = existsSync(out) ? readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
  const again = (l) => args.redo.includes(l.tug.class) && (args.whereRope === null || l.rope?.class === args.whereRope);
  const done = new Set(stored.filter((l) => !again(l)).map((l) => l.index));
  const redone = new Set(stored.filter(again).map((l) => l.index));
  picked.forEach((p, index) => {
    if (args.only !== null ? index !== args.only : done.has(index)) return;
    if (args.only === null && args.redo.length && !redone.has(index)) return;
    if (args.warm && !warmed()) daemon(TUG, info.repo, corpus, true, 'start'), setWarmed(info.repo);
    const started = Date.now();
    const withRope = args.rope && !rust && index < args.ropePerOp;
    const { tug, rope } = sweepOne(info, corpus, p, { rope: withRope, warm: args.warm, seed: args.seed * 100003 + index });
    const repro = `node tests/sweep/run.mjs --corpus ${corpus} --op ${op} --seed ${args.seed} --per-op ${args.perOp} --only ${index}${withRope ? ' --rope' : ''}${args.warm ? ' --warm' : ''}`;
    const line = { corpus, op, seed: args.seed, index, position: p, tug, rope, repro, tug_build: process.env.SWEEP_TUG_COMMIT ?? null, wall_ms: Date.now() - started, at: new Date().toISOString() };
    if (args.only === null && redone.has(index)) {
      // Without --rope the earlier rope result (same position, same corpus commit) still holds.
      if (!line.rope) line.rope = stored.find((l) => l.index === index)?.rope ?? null;
      const kept = readFileSync(out, 'utf8').split('\n').filter((l) => l && JSON.parse(l).index !== index);
      writeFileSync(out, `${[...kept, JSON.stringify(line)].join('\n')}\n`);
    } else if (args.only === null) appendFileSync(out, `${JSON.stringify(line)}\n`);
    process.stdout.write(`${corpus} ${op} #${index} ${p.file}:${p.line ?? ''}:${p.col ?? ''} tug=${tug.class}${tug.assist_id ? ` [${tug.assist_id}]` : ''}${tug.group ? ` (${tug.group})` : ''}${rope ? ` rope=${rope.class}` : ''} ${tug.ms}ms (${line.wall_ms}ms in all)\n`);
    if (args.only !== null) process.stdout.write(`${JSON.stringify(line, null, 2)}\n`);
  });
}

/** --jobs N: the corpora split over N child processes (one corpus per child at a time), each one niced like tug. */
async function sweepParallel(corpora, args, argv) {
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--corpus' || argv[i] === '--jobs') i++;
    else rest.push(argv[i]);
  }
  const queue = [...corpora];
  const worker = async () => {
    for (let corpus = queue.shift(); corpus; corpus = queue.shift()) {
      const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--corpus', corpus, ...rest], { stdio: 'inherit' });
      await new Promise((resolve) => child.on('exit', resolve));
    }
  };
  await Promise.all(Array.from({ length: Math.min(args.jobs, corpora.length) }, worker));
}

function main() {
  const argv = process.argv.slice(2);
  const args = parseArgs(argv);
  const corpora = args.corpus === 'all' ? Object.keys(CORPORA) : args.corpus.split(',');
  mkdirSync(path.join(WORK, 'results'), { recursive: true });
  if (args.jobs > 1 && corpora.length > 1 && args.only === null) return sweepParallel(corpora, args, argv);
  for (const corpus of corpora) sweepCorpus(corpus, args);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) main();
