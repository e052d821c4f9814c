// TypeScript/JavaScript refactors on a real project, the way docs/QUALITY.md counts them: each case of a cases file run with `--verify tests`, every ok result's commit tested again outside tug (its tests, then `tsc --noEmit` where it has a tsconfig.json, else a checkJs count of unresolved or doubled names in the changed files; red there is "broken"), a markdown row per case. Run: node tests/sweep/typescript.mjs PROJECT_DIR CASES.json [--no-recheck] [--positions N --seed S [--ops LIST|all]]
// With --positions N, the cases are N renames at seeded positions of the project's own identifiers (typescript-positions.mjs) and the cases file gives only its test_command.
//
// PROJECT_DIR is a clone with its packages installed (npm install). CASES.json:
//   { "test_command": ["npx", "uvu", "-r", "esm", "test"],      (optional; default: the package's test script)
//     "cases": [ { "op": "rename", "file": "src/index.js", "word": "toVal", "nth": 1, "to": "toValue" },
//                { "op": "organize-imports", "file": "test/index.js" },
//                { "op": "extract-variable" | "extract-function", "file": "…", "text": "a + b", "nth": 1, "name": "sum" },
//                { "op": "inline", "file": "…", "word": "tmp", "nth": 2 },
//                { "op": "move-symbol", "file": "…", "word": "helper", "nth": 1, "destination": "src/helpers.js" },
//                { "op": "change-signature", "file": "…", "word": "f", "nth": 1, "params": "[…]" } ] }
// `word`/`text` with `nth` (1-based occurrence in the file; a word counts only whole) name positions, so a case list
// reads like what a maintainer meant and survives small upstream edits. Each result branch is deleted after its case.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { grown, nameDiagnostics } from './typescript-checkjs.mjs';
import { operationCases, renameCases, sourceFiles, TS_OPS } from './typescript-positions.mjs';

const TUG = process.env.SWEEP_TUG ?? fileURLToPath(new URL('../../bin/tug', import.meta.url));
const ENV = { ...process.env, TUG_NO_DAEMON: '1', TUG_DAEMON_AUTOSTART: '0' };

/** 1-based line and column (UTF-8 bytes, as tug counts) of the nth occurrence of `needle` (whole word when `word`), and where it ends. */
export function locate(text, needle, nth = 1, word = true) {
  const escaped = needle.replace(/[$.*+?^()|[\]{}\\]/g, '\\$&');
  const pattern = new RegExp(word ? `(?<![\\w$])${escaped}(?![\\w$])` : escaped, 'g');
  const matches = [...text.matchAll(pattern)];
  const match = matches[nth - 1];
  if (!match) throw new Error(`${needle} occurs ${matches.length} times, not ${nth}`);
  const at = (offset) => {
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    return { line, col: Buffer.byteLength(before.slice(before.lastIndexOf('\n') + 1)) + 1 }; // tug's columns count UTF-8 bytes
  };
  return { start: at(match.index), end: at(match.index + needle.length) };
}

function argsOf(dir, c) {
  const text = readFileSync(path.join(dir, c.file), 'utf8');
  const pos = () => {
    if (c.line) return `${c.file}:${c.line}:${c.col}`;
    const { start } = locate(text, c.word, c.nth ?? 1, true);
    return `${c.file}:${start.line}:${start.col}`;
  };
  const range = () => {
    if (c.range) return `${c.file}:${c.range}`;
    const { start, end } = locate(text, c.text, c.nth ?? 1, false);
    return `${c.file}:${start.line}:${start.col}-${end.line}:${end.col}`;
  };
  switch (c.op) {
    case 'rename':
      return ['run', 'rename-symbol', '--at', pos(), '--to', c.to];
    case 'organize-imports':
      return ['run', 'organize-imports', '--file', c.file];
    case 'extract-variable':
    case 'extract-function':
      return ['run', c.op, '--range', range(), '--name', c.name];
    case 'inline':
      return ['run', 'inline', '--at', pos()];
    case 'move-symbol':
      return ['run', 'move-symbol', '--at', pos(), '--destination', c.destination];
    case 'change-signature':
      return ['run', 'change-signature', '--at', pos(), '--params', typeof c.params === 'string' ? c.params : JSON.stringify(c.params)];
    default:
      throw new Error(`unknown op ${c.op}`);
  }
}

/** Whether the result's unified diff, applied to its base commit, gives exactly the commit's tree (the diff an agent reads is the change made). */
function diffFaithful(dir, base, commit, diff) {
  const tree = mkdtempSync(path.join(os.tmpdir(), 'tug-ts-diff-'));
  rmSync(tree, { recursive: true });
  execFileSync('git', ['worktree', 'add', '-q', '--detach', tree, base], { cwd: dir, stdio: 'ignore' });
  try {
    const apply = spawnSync('git', ['apply', '--index', '--whitespace=nowarn', '-'], { cwd: tree, input: diff, encoding: 'utf8' });
    if (apply.status !== 0) return `git apply: ${apply.stderr.trim().slice(0, 160)}`;
    const same = spawnSync('git', ['diff', '--cached', '--quiet', commit], { cwd: tree });
    return same.status === 0 ? null : `the diff applied differs from the commit: ${spawnSync('git', ['diff', '--cached', '--stat', commit], { cwd: tree, encoding: 'utf8' }).stdout.trim().split('\n').pop()}`;
  } finally {
    execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: dir, stdio: 'ignore' });
  }
}

const baselines = {};

/**
 * The project's installed packages seen from a checkout of a result: each entry linked to the clone's, except npm
 * workspace links (relative links into the repository, `node_modules/rehype -> ../packages/rehype`), made again
 * relative so that they reach the result's own packages, not the clone's.
 */
function linkPackages(from, to) {
  if (existsSync(to)) return; // a clone whose node_modules is itself a link has it in its snapshots, so in the result
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    if (entry.isSymbolicLink() && !path.isAbsolute(readlinkSync(source))) symlinkSync(readlinkSync(source), path.join(to, entry.name));
    else if (entry.isDirectory() && entry.name.startsWith('@')) linkPackages(source, path.join(to, entry.name));
    else symlinkSync(source, path.join(to, entry.name));
  }
}

/** The project's tests on a commit, in a throwaway worktree that sees the project's installed packages. */
function testsPass(dir, commit, command) {
  const tree = mkdtempSync(path.join(os.tmpdir(), 'tug-ts-recheck-'));
  rmSync(tree, { recursive: true });
  execFileSync('git', ['worktree', 'add', '-q', '--detach', tree, commit], { cwd: dir, stdio: 'ignore' });
  try {
    linkPackages(path.join(dir, 'node_modules'), path.join(tree, 'node_modules'));
    const [program, ...args] = command ?? ['npm', 'test', '--silent'];
    const run = spawnSync(program, args, { cwd: tree, encoding: 'utf8', timeout: 600_000, env: { ...process.env, CI: 'true' } });
    if (run.status !== 0) return { ok: false, tail: `${run.stdout}${run.stderr}`.trim().split('\n').slice(-5).join(' / ') };
    // A project with a tsconfig.json and its own tsc is also type-checked: a result whose tests pass but whose types do not is broken too.
    if (existsSync(path.join(tree, 'tsconfig.json')) && existsSync(path.join(dir, 'node_modules', '.bin', 'tsc'))) {
      const tsc = spawnSync(path.join(dir, 'node_modules', '.bin', 'tsc'), ['--noEmit', '-p', '.'], { cwd: tree, encoding: 'utf8', timeout: 600_000 });
      if (tsc.status !== 0) return { ok: false, tail: `tsc: ${`${tsc.stdout}${tsc.stderr}`.trim().split('\n').slice(0, 3).join(' / ')}` };
    } else if (!existsSync(path.join(tree, 'tsconfig.json'))) {
      // Plain JavaScript: the changed files checked as JavaScript, against the project as it was (typescript-checkjs.mjs).
      const changed = execFileSync('git', ['diff', '--name-only', 'HEAD', commit], { cwd: dir, encoding: 'utf8' }).split('\n').filter(Boolean);
      baselines[dir] ??= nameDiagnostics(dir, sourceFiles(dir));
      const grew = grown(baselines[dir], nameDiagnostics(tree, changed));
      if (grew.length) return { ok: false, tail: `checkJs: new name errors ${grew.join(', ')}` };
    }
    return { ok: true, tail: '' };
  } finally {
    execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: dir, stdio: 'ignore' });
  }
}

export function sweep(dir, spec, recheck = true) {
  const rows = [];
  // Each case's row goes to stderr as soon as it is known: a run of a few dozen cases takes minutes per case under load.
  const push = rows.push.bind(rows);
  rows.push = (row) => (process.stderr.write(`${row.outcome}\t${row.label}\t${row.note ?? ''}\n`), push(row));
  for (const c of spec.cases) {
    const place = c.range ? `:${c.range}` : c.line ? `:${c.line}:${c.col}` : '';
    const label = c.op === 'rename' ? `rename ${c.word}${c.line ? ` at ${c.file}:${c.line}:${c.col} (${c.kind})` : `#${c.nth ?? 1}`} -> ${c.to}` : `${c.op}${c.kind ? ` (${c.kind})` : ''} ${c.file}${place}${c.text ? ` "${c.text.replace(/\s+/g, ' ').slice(0, 40)}"` : c.word ? ` ${c.word}` : ''}`;
    let args;
    try {
      args = argsOf(dir, c);
    } catch (error) {
      rows.push({ label, outcome: 'case error', note: error.message });
      continue;
    }
    const testFlags = spec.test_command ? ['--test-command', JSON.stringify(spec.test_command)] : [];
    const started = performance.now();
    const run = spawnSync(TUG, [...args, '--verify', 'tests', ...testFlags, '--json'], { cwd: dir, encoding: 'utf8', env: ENV, maxBuffer: 64 * 1024 * 1024, timeout: 900_000 });
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    let json;
    try {
      json = JSON.parse(run.stdout);
    } catch {
      rows.push({ label, outcome: 'crash', note: `exit ${run.status}: ${(run.stderr || run.stdout).slice(-300)}`, seconds });
      continue;
    }
    if (json.status !== 'ok') {
      const code = json.error?.code ?? 'error';
      rows.push({ label, outcome: code === 'InternalError' ? 'crash' : 'refused', note: `${code}: ${(json.error?.message ?? '').slice(0, 160)}`, seconds });
      continue;
    }
    const edits = json.patch?.edits?.length ?? 0;
    const branch = json.git?.branch;
    let outcome = json.summary?.changed === false || edits === 0 ? 'ok (no change)' : 'ok';
    let note = `${edits} edits, ${new Set((json.patch?.edits ?? []).map((e) => e.file)).size} files${json.unsure?.length ? `, ${json.unsure.length} unsure` : ''}`;
    if (branch && edits > 0 && json.patch?.unified_diff !== undefined && json.git?.snapshot_commit) {
      const wrong = diffFaithful(dir, json.git.snapshot_commit, json.git.commit, json.patch.unified_diff);
      if (wrong) (outcome = 'broken'), (note += `; unified_diff: ${wrong}`);
    }
    // An extract writes its new declaration anywhere but keeps every old line outside the selection, in order (a line
    // diff may show that as lines moved, so the check is on the file, not on the edits): a line changed elsewhere (a
    // same-named word renamed, as once happened) is broken whatever the tests say.
    if (outcome === 'ok' && branch && (c.op === 'extract-variable' || c.op === 'extract-function')) {
      const before = readFileSync(path.join(dir, c.file), 'utf8').split('\n');
      const span = c.range ? (([from, to]) => ({ first: Number(from), last: Number(to) }))(c.range.split('-').map((p) => p.split(':')[0])) : (({ start, end }) => ({ first: start.line, last: end.line }))(locate(before.join('\n'), c.text, c.nth ?? 1, false));
      const after = execFileSync('git', ['show', `${json.git.commit}:${c.file}`], { cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20 }).split('\n');
      let at = 0;
      const lost = before.filter((line, i) => {
        if (i + 1 >= span.first && i + 1 <= span.last) return false;
        while (at < after.length && after[at] !== line) at++;
        return at++ >= after.length;
      });
      const others = new Set((json.patch?.edits ?? []).map((e) => e.file).filter((f) => f !== c.file));
      if (lost.length || others.size) (outcome = 'broken'), (note += `; old text changed outside the selection: ${[...others, ...lost.slice(0, 2).map((l) => JSON.stringify(l.trim().slice(0, 60)))].join(', ')}`);
    }
    if (recheck && branch && edits > 0 && outcome === 'ok') {
      const again = testsPass(dir, json.git.commit, spec.test_command);
      if (!again.ok) (outcome = 'broken'), (note += `; red outside tug: ${again.tail.slice(0, 200)}`);
    }
    if (branch) spawnSync('git', ['branch', '-D', branch], { cwd: dir, stdio: 'ignore' });
    rows.push({ label, outcome, note, seconds });
  }
  return rows;
}

export function report(name, rows) {
  const count = (o) => rows.filter((r) => r.outcome.startsWith(o)).length;
  return [
    `| ${name} | case | outcome | note | s |`,
    '|---|---|---|---|---|',
    ...rows.map((r) => `| | ${r.label} | ${r.outcome} | ${(r.note ?? '').replace(/\|/g, '\\|')} | ${r.seconds ?? ''} |`),
    '',
    `${name}: ${rows.length} cases, ${count('ok')} ok, ${count('refused')} refused, ${count('broken')} broken, ${count('crash')} crashes, ${count('case error')} case errors.`,
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const [dir, casesFile] = process.argv.slice(2);
  const option = (name) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : null);
  if (!dir || !casesFile) {
    process.stderr.write('usage: node tests/sweep/typescript.mjs PROJECT_DIR CASES.json [--no-recheck] [--positions N --seed S [--ops LIST|all]]\n');
    process.exit(2);
  }
  const spec = JSON.parse(readFileSync(casesFile, 'utf8'));
  // --positions N: N renames at seeded identifier positions of the project's own names instead of the file's cases;
  // with --ops LIST (or all), N seeded positions of each operation listed.
  const ops = process.argv.includes('--ops') ? process.argv[process.argv.indexOf('--ops') + 1] : null;
  if (option('--positions')) {
    spec.cases = ops
      ? operationCases(path.resolve(dir), option('--seed') ?? 1, option('--positions'), ops === 'all' ? TS_OPS : ops.split(','))
      : renameCases(path.resolve(dir), option('--seed') ?? 1, option('--positions'));
  }
  const rows = sweep(path.resolve(dir), spec, !process.argv.includes('--no-recheck'));
  process.stdout.write(`${report(path.basename(path.resolve(dir)), rows)}\n`);
}
