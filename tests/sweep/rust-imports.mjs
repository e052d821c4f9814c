// Issue 32 §4's corpus check of Rust organize-imports: its result must be byte-identical to `cargo fmt` after the
// unused `use` items are removed. Real crates are already clean, so for every `src/` file with `use` items this makes
// what a person's edit leaves behind (tests/sweep/rust-inject.mjs, from a seed: existing items reordered and split,
// unused std/core and crate-local items added alone, in a new group or inside an existing `{…}` group), commits it
// on a branch of the corpus repository, runs `tug run organize-imports --file F --verify tests` (cargo check and cargo
// test; typecheck would run clippy, whose deny-by-default lints fail regex-syntax before any change), and compares tug's
// file with the expected one: the same edit without the unused items, through `cargo fmt` (the crate's own
// rustfmt.toml and edition) in a scratch checkout. Every ok result also gets the crate's `cargo test` there.
//
// The byte comparison is made for files that `cargo fmt` leaves unchanged at the corpus commit ("rustfmt-clean");
// for the others tug formats only the `use` blocks by design, so they are run and tested but their comparison is
// reported as "not compared", and so are files with an import unused already at the corpus commit (tug removes it
// too, the expected result keeps it). A mismatch is broken; a refusal with a reason is counted as refused; an ok with no
// change is a mismatch too (there was always something unused to remove). Files the default features do not compile
// (a module behind a feature: rustc says nothing about them) are listed as not built and not tried.
//
// Usage: node tests/sweep/rust-imports.mjs --corpus semver,ryu|rust --seed 1 [--tries 1] [--files N] [--verify tests|typecheck]
//          [--only FILE] [--sort-only] [--report]
// --sort-only: the items are only reordered and split (nothing unused added); the expected result is then cargo fmt's
// of that edit, which tug must give as well (it sorts where rustfmt changes nothing but imports), or changed: false
// where that is the edit itself.
// Results: $SWEEP_DIR/results/<corpus>.rust-imports.s<seed>.jsonl, one line per file and try, resumable.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { classifyTug } from './classify.mjs';
import { scratch } from './check.mjs';
import { CORPORA, corpusRepo, git, runTests, spawnNiced, WORK } from './corpora.mjs';
import { inject, seedOf, topItems } from './rust-inject.mjs';
import { tugEnv } from './warm.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TUG = process.env.SWEEP_TUG ?? path.join(HERE, '..', '..', 'bin', 'tug');
const BRANCH = 'rust-imports';

function parseArgs(argv) {
  const out = { corpus: 'rust', seed: 1, tries: 1, files: Infinity, verify: 'tests', only: null, report: false, sortOnly: false };
  for (let i = 0; i < argv.length; i++) {
    const [k, v] = [argv[i], argv[i + 1]];
    if (k === '--corpus') (out.corpus = v), i++;
    else if (k === '--seed') (out.seed = Number(v)), i++;
    else if (k === '--tries') (out.tries = Number(v)), i++;
    else if (k === '--files') (out.files = Number(v)), i++;
    else if (k === '--verify') (out.verify = v), i++;
    else if (k === '--only') (out.only = v), i++;
    else if (k === '--report') out.report = true;
    else if (k === '--sort-only') out.sortOnly = true;
    else throw new Error(`unknown argument ${k}`);
  }
  return out;
}

/** The crate's facts the injection needs: edition, std or core, items of the root and of its top modules. */
function crateContext(repo) {
  const manifest = readFileSync(path.join(repo, 'Cargo.toml'), 'utf8');
  const edition = /^\s*edition\s*=\s*"(\d{4})"/m.exec(manifest)?.[1] ?? '2015';
  const rootFile = existsSync(path.join(repo, 'src/lib.rs')) ? 'src/lib.rs' : 'src/main.rs';
  const root = readFileSync(path.join(repo, rootFile), 'utf8');
  const noStd = /\bno_std\b/.test(root);
  const moduleItems = {};
  const lines = root.split('\n');
  lines.forEach((l, i) => {
    const m = /^(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;/.exec(l);
    if (!m || (i > 0 && /^\s*#\[(cfg|path)/.test(lines[i - 1]))) return;
    for (const f of [`src/${m[1]}.rs`, `src/${m[1]}/mod.rs`]) {
      if (existsSync(path.join(repo, f))) moduleItems[m[1]] = topItems(readFileSync(path.join(repo, f), 'utf8'), true);
    }
  });
  // core:: names a crate in every 2018+ crate; in 2015 only where no_std is unconditional (core injected at the root).
  const core = noStd && (edition !== '2015' || /^#!\[no_std\]/m.test(root));
  return { edition, root: core ? 'core' : 'std', rootFile, rootItems: topItems(root, false), moduleItems };
}

/** Files under src/ that `cargo fmt` changes at the corpus commit (computed once per corpus and commit). */
function notClean(info) {
  return perCommit(info, 'rustfmt-unclean.json', (dir) => {
    const run = spawnNiced(['cargo', 'fmt'], { cwd: dir, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`cargo fmt at the corpus commit: ${run.stderr}`);
    return git(dir, ['diff', '--name-only']).split('\n').filter(Boolean);
  });
}

/**
 * Files with an import rustc finds unused already at the corpus commit (`cargo check --all-targets` there): tug
 * rightly removes it too, which the expected result (the edit without the added items) does not, so their tries are
 * run and tested but not compared.
 */
function unusedAtBase(info) {
  return perCommit(info, 'unused-at-base.json', (dir) => {
    const run = spawnNiced(['cargo', 'check', '--offline', '--all-targets', '--message-format=json'], { cwd: dir, encoding: 'utf8', maxBuffer: 256 << 20, env: { ...process.env, CARGO_TARGET_DIR: path.join(dir, 'target') } });
    const files = new Set();
    for (const line of run.stdout.split('\n')) {
      if (!line.includes('unused_imports')) continue;
      const m = JSON.parse(line);
      if (m.reason === 'compiler-message' && m.message?.code?.code === 'unused_imports') for (const sp of m.message.spans) files.add(sp.file_name);
    }
    return [...files];
  });
}

/** A set of files `compute` lists in a scratch checkout of the corpus commit, kept in `name` beside the corpus per commit. */
function perCommit(info, name, compute) {
  const cache = path.join(path.dirname(info.repo), name);
  if (existsSync(cache)) {
    const c = JSON.parse(readFileSync(cache, 'utf8'));
    if (c.commit === info.commit) return new Set(c.files);
  }
  const files = compute(scratch(info.repo, info.commit, 'fmt'));
  writeFileSync(cache, JSON.stringify({ commit: info.commit, files }));
  return new Set(files);
}

/** `cargo fmt`'s output for `text` as `file` of the corpus (a scratch checkout of the corpus commit). */
function cargoFmt(info, file, text) {
  const dir = scratch(info.repo, info.commit, 'fmt');
  writeFileSync(path.join(dir, file), text);
  const run = spawnNiced(['cargo', 'fmt'], { cwd: dir, encoding: 'utf8' });
  if (run.status !== 0) return { error: `cargo fmt: ${run.stderr}`.slice(-1500) };
  return { text: readFileSync(path.join(dir, file), 'utf8') };
}

/** A file's bytes at a revision (git() trims its output, which a file's text must not lose). */
function show(repo, rev, file) {
  const run = spawnSync('git', ['show', `${rev}:${file}`], { cwd: repo, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (run.status !== 0) throw new Error(`git show ${rev}:${file}: ${run.stderr}`);
  return run.stdout;
}

/** A unified diff of expected against actual (git diff --no-index on two temporary files). */
function diffOf(info, expected, actual) {
  const dir = path.join(path.dirname(info.repo), 'diff');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'expected.rs'), expected);
  writeFileSync(path.join(dir, 'tug.rs'), actual);
  return git(dir, ['diff', '--no-index', '--', 'expected.rs', 'tug.rs'], { allowFailure: true }).slice(0, 4000);
}

function tryOne(info, corpus, file, t, args, ctx, unclean) {
  const base = show(info.repo, info.commit, file);
  const seed = seedOf(String(args.seed), file, String(t));
  const made = inject(base, file, seed, { ...ctx, isRoot: file === ctx.rootFile, sortOnly: args.sortOnly });
  if (!made) return { class: 'no-injection' };
  const rec = { ops: made.ops, unused: made.unused, rustfmt_clean: !unclean.has(file), unused_at_base: ctx.unusedAtBase.has(file) };
  git(info.repo, ['checkout', '-q', '-f', '-B', BRANCH, info.commit]);
  git(info.repo, ['clean', '-fdxq', '-e', '.git', '-e', 'target']);
  writeFileSync(path.join(info.repo, file), made.injected);
  git(info.repo, ['-c', 'user.name=sweep', '-c', 'user.email=sweep@localhost', 'commit', '-q', '-am', `inject into ${file} (seed ${seed})`]);
  const tugArgs = ['run', 'organize-imports', '--file', file, '--verify', args.verify, '--json'];
  const started = Date.now();
  const run = spawnNiced([TUG, ...tugArgs], { cwd: info.repo, encoding: 'utf8', timeout: 900_000, maxBuffer: 256 << 20, env: tugEnv(corpus, false) });
  const tug = classifyTug(run);
  tug.ms = Date.now() - started;
  rec.tug = tug;
  rec.command = `cd ${info.repo} && git checkout ${git(info.repo, ['rev-parse', 'HEAD'])} && TUG_NO_DAEMON=1 tug ${tugArgs.join(' ')}`;
  const expected = cargoFmt(info, file, made.reference);
  if (expected.error) rec.expected_error = expected.error;
  // Nothing to do is right only where cargo fmt leaves the edit as it is (a sort-only try whose order was already rustfmt's).
  // A sort-only try on a file rustfmt would change elsewhere is left alone by design (not compared).
  if (tug.class === 'ok-nochange') rec.class = expected.text === made.injected ? 'identical' : args.sortOnly && (!rec.rustfmt_clean || rec.unused_at_base) ? 'ok-not-compared' : 'mismatch';
  else if (tug.class !== 'ok') rec.class = tug.class;
  else {
    const actual = show(info.repo, tug.commit, file);
    rec.subject = git(info.repo, ['log', '-1', '--format=%s', tug.commit]);
    const same = expected.text !== undefined && actual === expected.text;
    if (!same && expected.text !== undefined) rec.diff = diffOf(info, expected.text, actual);
    const dir = scratch(info.repo, tug.commit);
    const tests = runTests(corpus, dir, 900);
    rec.tests_green = tests.green;
    if (!tests.green) rec.test_output = tests.output.slice(-1500);
    rec.class = !tests.green ? 'broken' : !rec.rustfmt_clean || rec.unused_at_base ? 'ok-not-compared' : same ? 'identical' : 'mismatch';
  }
  if (tug.branch) git(info.repo, ['branch', '-D', tug.branch], { allowFailure: true });
  git(info.repo, ['checkout', '-q', '-f', 'main']);
  return rec;
}

/**
 * The files the default features compile (cargo's dep-info files of the corpus's baseline `cargo test`): rustc says
 * nothing about imports in the others (a module behind a feature), so they are not tried.
 */
function builtFiles(repo) {
  const deps = path.join(repo, 'target', 'debug', 'deps');
  const out = new Set();
  for (const f of existsSync(deps) ? readdirSync(deps).filter((n) => n.endsWith('.d')) : []) {
    for (const word of readFileSync(path.join(deps, f), 'utf8').split(/[\s:]+/)) {
      if (word.startsWith(`${repo}/src/`)) out.add(word.slice(repo.length + 1));
      else if (word.startsWith('src/')) out.add(word); // relative to the package, which is the repository
    }
  }
  return out;
}

function sweep(corpus, args) {
  const info = corpusRepo(corpus);
  if (!info || !info.green) {
    process.stderr.write(`rust-imports: ${corpus}: ${info ? 'tests not green before any change' : 'package not installable'}, skipped\n`);
    return;
  }
  const ctx = { ...crateContext(info.repo), unusedAtBase: unusedAtBase(info) };
  const unclean = notClean(info);
  const built = builtFiles(info.repo);
  const files = git(info.repo, ['ls-files', 'src/*.rs']).split('\n').filter((f) => f && /^\s*(pub(\([^)]*\))?\s+)?use\s/m.test(readFileSync(path.join(info.repo, f), 'utf8')));
  const out = path.join(WORK, 'results', `${corpus}.${kindOf(args)}.s${args.seed}.jsonl`);
  const done = new Set(existsSync(out) ? readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => { const r = JSON.parse(l); return `${r.file}\0${r.try}`; }) : []);
  for (const file of files.slice(0, args.files)) {
    if (args.only !== null && file !== args.only) continue;
    for (let t = 0; t < args.tries; t++) {
      if (args.only === null && done.has(`${file}\0${t}`)) continue;
      const started = Date.now();
      const result = built.has(file) ? tryOne(info, corpus, file, t, args, ctx, unclean) : { class: 'not-built' };
      const rec = { corpus, file, try: t, seed: args.seed, ...result, tug_build: process.env.SWEEP_TUG_COMMIT ?? null, wall_ms: Date.now() - started, at: new Date().toISOString() };
      rec.repro = `node tests/sweep/rust-imports.mjs --corpus ${corpus} --seed ${args.seed} --tries ${t + 1} --only ${file}${args.sortOnly ? ' --sort-only' : ''}`;
      if (args.only === null) appendFileSync(out, `${JSON.stringify(rec)}\n`);
      else process.stdout.write(`${JSON.stringify(rec, null, 2)}\n`);
      process.stdout.write(`${corpus} ${file} #${t} ${rec.class}${rec.tug?.group ? ` (${rec.tug.group})` : ''} ${rec.tug?.ms ?? 0}ms (${rec.wall_ms}ms in all)\n`);
    }
  }
}

/** The results' name: the tries with unused items, or (--sort-only) those with the items only reordered and split. */
const kindOf = (args) => (args.sortOnly ? 'rust-imports-sort' : 'rust-imports');

/** The Markdown table of the stored results for docs/QUALITY.md. */
function report(args) {
  const dir = path.join(WORK, 'results');
  const rows = [];
  for (const corpus of Object.keys(CORPORA).filter((c) => CORPORA[c].rust)) {
    const f = path.join(dir, `${corpus}.${kindOf(args)}.s${args.seed}.jsonl`);
    if (existsSync(f)) rows.push(...readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)));
  }
  const lines = ['| crate | files | tries | identical | **mismatch** | ok, not compared (not rustfmt-clean, or unused at the base) | refused | caught by verification | **broken** | **crash** | cargo test green after ok |', '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|'];
  const corpora = [...new Set(rows.map((r) => r.corpus))];
  for (const c of [...corpora, null]) {
    const list = rows.filter((r) => (c === null || r.corpus === c) && r.class !== 'no-injection' && r.class !== 'not-built');
    const n = (k) => list.filter((r) => r.class === k).length;
    const ok = list.filter((r) => r.tests_green !== undefined);
    lines.push(`| ${c ?? '**all**'} | ${new Set(list.map((r) => `${r.corpus}/${r.file}`)).size} | ${list.length} | ${n('identical')} | ${n('mismatch')} | ${n('ok-not-compared')} | ${n('refused')} | ${n('caught')} | ${n('broken')} | ${n('crash')} | ${ok.filter((r) => r.tests_green).length}/${ok.length} |`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  const skipped = rows.filter((r) => r.class === 'no-injection' || r.class === 'not-built');
  process.stdout.write(`\nNot tried: ${skipped.filter((r) => r.class === 'not-built').length} files the default features do not compile, ${skipped.filter((r) => r.class === 'no-injection').length} files without a one-line \`use\` to work with.\n`);
  for (const r of rows.filter((x) => !['identical', 'ok-not-compared', 'no-injection', 'not-built'].includes(x.class))) {
    process.stdout.write(`\n- ${r.corpus} ${r.file} #${r.try}: ${r.class}${r.tug?.group ? ` (${r.tug.group})` : ''}; ${r.repro}\n`);
  }
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.report) return report(args);
  const corpora = args.corpus === 'rust' ? Object.keys(CORPORA).filter((c) => CORPORA[c].rust) : args.corpus.split(',');
  mkdirSync(path.join(WORK, 'results'), { recursive: true });
  for (const corpus of corpora) sweep(corpus, args);
}

main();
