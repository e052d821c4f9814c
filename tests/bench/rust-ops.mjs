// Every Rust operation's time, for issue 32's targets: warm (through a daemon whose rust-analyzer is indexed) within
// 0.3 s plus verification, so `--verify none` here; cold (a new process, TUG_NO_DAEMON=1) within 1.5× rust-analyzer's
// own start-and-answer for the same request (tests/bench/ra-alone.mjs: spawn, index, one rename), printed side by side.
// organize-imports is also timed with the file edited before each run: cargo check then has something to check.
// Those rows also give the CPU a call costs (the client, the daemon, and the processes the daemon ran and reaped:
// rustfmt, git; not cargo and rustc under bwrap, whose namespace is reaped elsewhere), which the machine's load
// inflates far less than the wall time.
// Usage: node tests/bench/rust-ops.mjs [--runs N]   (prints a Markdown table; the machine's load is printed with it)
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { git, median, ROOT, timed, TUG } from './lib.mjs';

const runs = process.argv.includes('--runs') ? Number(process.argv[process.argv.indexOf('--runs') + 1]) : 3;

const LIB = `use std::collections::HashMap;
use std::fmt::Write;

pub fn area(width: u32, height: u32) -> u32 {
    let doubled = width * 2;
    doubled * height / 2
}

pub fn total(items: &[u32]) -> u32 {
    let mut sum = 0;
    for i in items {
        sum += area(*i, 2);
    }
    sum
}

pub fn index(words: &[&str]) -> HashMap<usize, String> {
    let mut map = HashMap::new();
    for (n, w) in words.iter().enumerate() {
        map.insert(n, w.to_string());
    }
    map
}
`;

// Each operation as the CLI takes it; positions are in LIB above.
const OPS = [
  ['rename-symbol', ['run', 'rename-symbol', '--at', 'src/lib.rs:4:8', '--to', 'surface']],
  ['extract-variable', ['run', 'extract-variable', '--range', 'src/lib.rs:12:16-12:27', '--name', 'part']],
  ['extract-function', ['run', 'extract-function', '--range', 'src/lib.rs:20:9-20:38', '--name', 'put']],
  ['inline', ['run', 'inline', '--at', 'src/lib.rs:5:9']],
  ['organize-imports', ['run', 'organize-imports', '--file', 'src/lib.rs']],
  ['change-signature', ['run', 'change-signature', '--at', 'src/lib.rs:4:8', '--params', '[{"name":"height"},{"name":"width"}]']],
  ['assist', ['run', 'assist', '--id', 'flip_binexpr', '--at', 'src/lib.rs:6:22']],
];

function crate() {
  const dir = mkdtempSync(path.join(tmpdir(), 'tug-bench-rust-ops-'));
  mkdirSync(path.join(dir, 'src'));
  writeFileSync(path.join(dir, 'Cargo.toml'), '[package]\nname = "bench_ops"\nversion = "0.1.0"\nedition = "2021"\n');
  writeFileSync(path.join(dir, 'src', 'lib.rs'), LIB);
  writeFileSync(path.join(dir, '.gitignore'), 'target/\n');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, '-c', 'user.name=bench', '-c', 'user.email=bench@localhost', 'commit', '-q', '-m', 'crate');
  return dir;
}

/** One tug call's wall time; the branch it made is deleted so that the next call starts from the same place. */
function call(dir, args, env) {
  return verified(dir, args, env, 'none').ms;
}

/** CPU milliseconds of a process: its own (`self`: only its reaped children's) and its reaped children's, from /proc. */
function cpuMs(pid, self = false) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = (self ? [13, 14] : [11, 12, 13, 14]).reduce((sum, i) => sum + Number(fields[i]), 0);
  return ticks * 10; // USER_HZ is 100 on Linux
}

/** The daemon's pid when one serves `env`, for its CPU; null for cold runs. */
let daemonPid = null;
const callCpu = () => cpuMs('self', true) + (daemonPid ? cpuMs(daemonPid) : 0);

/** One call with a verification level: its wall time, its CPU, and the verification's own time (the checks' durations summed). */
function verified(dir, args, env, level) {
  const cpuBefore = callCpu();
  const run = timed(TUG, [...args, '--verify', level, '--json'], { cwd: dir, env, allowFailure: true });
  const cpu = callCpu() - cpuBefore;
  const json = JSON.parse(run.stdout);
  if (json.status !== 'ok') throw new Error(`${args.join(' ')}: ${run.stdout.slice(0, 600)}`);
  if (json.git?.branch) git(dir, 'branch', '-D', json.git.branch);
  return { ms: run.ms, cpu, verification: (json.verification?.checks ?? []).reduce((sum, c) => sum + (c.duration_ms ?? 0), 0) };
}

/** organize-imports on the file edited before each run (a new snapshot: cargo check has something to check). */
function afterEdits(dir, env, level, tag) {
  const organize = OPS.find(([name]) => name === 'organize-imports')[1];
  const results = Array.from({ length: runs }, (_, i) => {
    writeFileSync(path.join(dir, 'src', 'lib.rs'), `${LIB}// ${tag} ${i}\n`);
    return verified(dir, organize, env, level);
  });
  writeFileSync(path.join(dir, 'src', 'lib.rs'), LIB);
  return { ms: median(results.map((r) => r.ms)), cpu: median(results.map((r) => r.cpu)), own: median(results.map((r) => r.ms - r.verification)), verification: median(results.map((r) => r.verification)) };
}

const dir = crate();
const runtime = mkdtempSync(path.join(tmpdir(), 'tug-bench-xdg-'));
// TUG_TIMINGS=1 (the daemon's too): the JSON then carries each check's duration, the verification's own time.
const warm = { ...process.env, XDG_RUNTIME_DIR: runtime, TUG_DAEMON_IDLE_SECONDS: '300', TUG_TIMINGS: '1' };
delete warm.TUG_NO_DAEMON;
const cold = { ...process.env, TUG_NO_DAEMON: '1' };
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
const rows = [];
try {
  const loadBefore = load();
  const raAlone = [];
  const coldRename = [];
  for (let i = 0; i < runs; i++) {
    raAlone.push(Number(timed('node', [path.join(ROOT, 'tests', 'bench', 'ra-alone.mjs'), dir, 'src/lib.rs', '4', '8', 'surface']).stdout.trim()));
    coldRename.push(timed(TUG, ['analyze-impact', 'rename-symbol', '--at', 'src/lib.rs:4:8', '--to', 'surface', '--json'], { cwd: dir, env: cold }).ms);
  }
  timed(TUG, ['daemon', 'start', '--json'], { cwd: dir, env: warm });
  daemonPid = JSON.parse(timed(TUG, ['daemon', 'status', '--json'], { cwd: dir, env: warm }).stdout).daemon?.pid ?? null;
  for (const [, args] of OPS) call(dir, args, warm); // the daemon's rust-analyzer indexes the crate once
  for (const [name, args] of OPS) {
    const times = Array.from({ length: runs }, () => call(dir, args, warm));
    rows.push([name, median(times)]);
  }
  // The daemon remembers organize-imports' plan for a snapshot; after an edit cargo check runs again (incrementally).
  const edited = afterEdits(dir, warm, 'none', 'warm');
  rows.push(['organize-imports, the file edited before each run', edited.ms]);
  const editedVerified = afterEdits(dir, warm, 'syntax', 'verified');
  const pid = daemonPid;
  daemonPid = null; // a cold call's CPU is the client's alone, all of it reaped by this process
  const editedCold = afterEdits(dir, cold, 'none', 'cold');
  daemonPid = pid;
  const version = median(Array.from({ length: runs }, () => timed(TUG, ['--version'], { cwd: dir, env: warm }).ms));
  const ra = median(raAlone);
  const tug = median(coldRename);
  const ms = (v) => `${Math.round(v)} ms`;
  const out = [
    `| cold: \`tug analyze-impact rename-symbol\` | rust-analyzer alone (start, index, rename) | ratio (target ≤ 1.5×) |`,
    '|--:|--:|--:|',
    `| ${ms(tug)} | ${ms(ra)} | ${(tug / ra).toFixed(2)}× |`,
    '',
    '| warm, through the daemon, `--verify none` | median | target ≤ 300 ms |',
    '|---|--:|---|',
    ...rows.map(([name, v]) => `| ${name} | ${ms(v)} | ${v <= 300 ? 'met' : 'not met'} |`),
    `| \`tug --version\` (for scale) | ${ms(version)} | |`,
    '',
    '| organize-imports, the file edited before each run | warm (daemon) | cold (`TUG_NO_DAEMON=1`) | warm ÷ cold |',
    '|---|--:|--:|--:|',
    `| \`--verify none\` | ${ms(edited.ms)} | ${ms(editedCold.ms)} | ${(edited.ms / editedCold.ms).toFixed(2)}× |`,
    `| \`--verify none\`, CPU (client, daemon, git, rustfmt; not cargo under bwrap) | ${ms(edited.cpu)} | ${ms(editedCold.cpu)} | ${(edited.cpu / editedCold.cpu).toFixed(2)}× |`,
    '',
    '| organize-imports after an edit, warm, `--verify syntax` (cargo check of the result) | median |',
    '|---|--:|',
    `| whole call | ${ms(editedVerified.ms)} |`,
    `| the verification's own time (its checks' durations) | ${ms(editedVerified.verification)} |`,
    `| the rest (target ≤ 300 ms) | ${ms(editedVerified.own)} (${(editedVerified.own / 300).toFixed(2)}× the target) |`,
    `| CPU of the whole call (client, daemon, git, rustfmt; not cargo under bwrap) | ${ms(editedVerified.cpu)} |`,
    '',
    `Medians of ${runs} runs; load average (1, 5, 15 min) ${loadBefore} before, ${load()} after.`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
} finally {
  timed(TUG, ['daemon', 'stop', '--json'], { cwd: dir, env: warm, allowFailure: true });
  rmSync(dir, { recursive: true, force: true });
  rmSync(runtime, { recursive: true, force: true });
}
