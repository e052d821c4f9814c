// TypeScript rename: a cold `tug` (analyze-impact and a full rename with --verify none) against a bare tsserver (start + open + rename) on the same generated project, and the warm path (a private daemon, and calls inside one process); prints markdown for docs/PERFORMANCE.md. Run: node tests/bench/typescript.mjs [files=500] [runs=3]
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TUG = path.join(ROOT, 'bin', 'tug');
const TSSERVER = path.join(path.dirname(createRequire(import.meta.url).resolve('typescript')), 'tsserver.js');

/** Who commits in the bench's project (its own commits: the project, and the edits of the warm rows). */
const GIT_IDENTITY = { GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' };

/** `files` modules in a chain, each importing the shared `helper` and its predecessor: one symbol used everywhere. */
export function makeProject(files) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tug-bench-ts-'));
  mkdirSync(path.join(dir, 'src'));
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', noEmit: true }, include: ['src'] }));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'bench', type: 'module', private: true }));
  writeFileSync(path.join(dir, 'src', 'util.ts'), 'export function helper(n: number): number {\n  return n + 1;\n}\n');
  for (let i = 0; i < files; i++) {
    const prev = i === 0 ? '' : `import { f${i - 1} } from './m${i - 1}.js';\n`;
    const body = i === 0 ? 'helper(n)' : `helper(f${i - 1}(n))`;
    writeFileSync(path.join(dir, 'src', `m${i}.ts`), `import { helper } from './util.js';\n${prev}\nexport function f${i}(n: number): number {\n  return ${body};\n}\n`);
  }
  const git = (...args) => execFileSync('git', args, { cwd: dir, stdio: 'ignore', env: { ...process.env, ...GIT_IDENTITY } });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'bench');
  return dir;
}

const WITHOUT_CA_CERTS = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_EXTRA_CA_CERTS'));

/** A bare tsserver: process start, open the file, one rename request answered. */
function tsserverRename(dir) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // Without NODE_EXTRA_CA_CERTS, as tug starts Node (bin/tug): Node reads that file at start (~45 ms of CPU here), and
    // the baseline must not pay what tug does not.
    const server = spawn(process.execPath, [TSSERVER, '--disableAutomaticTypingAcquisition'], { cwd: dir, stdio: ['pipe', 'pipe', 'ignore'], env: WITHOUT_CA_CERTS });
    const file = path.join(dir, 'src', 'util.ts');
    let buffer = '';
    server.stdout.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      // Messages are Content-Length framed, one JSON text per line; the last line may still be arriving.
      const lines = buffer.split('\n');
      buffer = lines.pop();
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        const message = JSON.parse(line);
        if (message.type === 'response' && message.command === 'rename') {
          const ms = performance.now() - started;
          const count = message.body.locs.reduce((n, l) => n + l.locs.length, 0);
          // utime + stime of the server so far, in clock ticks (100 per second on Linux), read before it is ended.
          const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1].split(' ');
          const cpu = (Number(fields[11]) + Number(fields[12])) * 10;
          server.kill();
          resolve({ ms, count, cpu });
        }
      }
    });
    server.on('error', reject);
    const send = (seq, command, args) => server.stdin.write(`${JSON.stringify({ seq, type: 'request', command, arguments: args })}\n`);
    send(1, 'open', { file });
    send(2, 'rename', { file, line: 1, offset: 17, findInStrings: false, findInComments: false });
  });
}

/** A cold tug process: wall time, and CPU time with its git children (GNU time's rusage) when /usr/bin/time is there. */
function tugRun(dir, args, extraEnv = {}) {
  const cpuFile = path.join(os.tmpdir(), `tug-bench-ts-cpu-${process.pid}`);
  const timed = existsSync('/usr/bin/time');
  const started = performance.now();
  const out = timed
    ? execFileSync('/usr/bin/time', ['-f', '%U %S', '-o', cpuFile, TUG, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, TUG_NO_DAEMON: '1', TUG_DAEMON_AUTOSTART: '0', ...extraEnv } })
    : execFileSync(TUG, args, { cwd: dir, encoding: 'utf8', env: { ...process.env, TUG_NO_DAEMON: '1', TUG_DAEMON_AUTOSTART: '0', ...extraEnv } });
  const ms = performance.now() - started;
  const cpu = timed ? readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1).split(' ').reduce((sum, x) => sum + Number(x) * 1000, 0) : NaN;
  rmSync(cpuFile, { force: true });
  return { ms, cpu, json: JSON.parse(out) };
}

/** CPU milliseconds (user + system) a running process has used, from /proc (clock ticks of 10 ms). */
function cpuOfPid(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Warm calls inside one process: wall and CPU milliseconds of each (CPU time holds up better on a loaded machine). */
const IN_PROCESS = `
const [dir, runs, local] = process.argv.slice(1);
const { analyzeImpact } = await import(${JSON.stringify(new URL('../../dist/lib/index.js', import.meta.url).href)});
const call = () => analyzeImpact({ workspace: dir, operation: 'rename_symbol', file: 'src/util.ts', line: 1, column: 17, new_name: 'step' });
await call();
const wall = [];
const cpu = [];
for (let i = 0; i < Number(runs); i++) {
  const started = performance.now();
  const used = process.cpuUsage();
  await call();
  const spent = process.cpuUsage(used);
  wall.push(performance.now() - started);
  cpu.push((spent.user + spent.system) / 1000);
}
const { execFileSync } = await import('node:child_process');
const { renameSymbol } = await import(${JSON.stringify(new URL('../../dist/lib/index.js', import.meta.url).href)});
const renameWall = [];
const renameCpu = [];
for (let i = 0; i < Number(runs); i++) {
  const started = performance.now();
  const used = process.cpuUsage();
  const run = await renameSymbol({ workspace: dir, file: 'src/util.ts', line: 1, column: 17, new_name: 'step', verify: 'none' });
  const spent = process.cpuUsage(used);
  renameWall.push(performance.now() - started);
  renameCpu.push((spent.user + spent.system) / 1000);
  execFileSync('git', ['branch', '-D', run.git.branch], { cwd: dir, stdio: 'ignore' });
}
// A typical rename in the same project: a function defined in one module and called from the next (2 files).
const localWall = [];
const localCpu = [];
for (let i = 0; i < Number(runs); i++) {
  const started = performance.now();
  const used = process.cpuUsage();
  const run = await renameSymbol({ workspace: dir, file: \`src/m\${local}.ts\`, line: 4, column: 17, new_name: \`g\${local}\`, verify: 'none' });
  const spent = process.cpuUsage(used);
  localWall.push(performance.now() - started);
  localCpu.push((spent.user + spent.system) / 1000);
  execFileSync('git', ['branch', '-D', run.git.branch], { cwd: dir, stdio: 'ignore' });
}
process.stdout.write(JSON.stringify({ wall, cpu, renameWall, renameCpu, localWall, localCpu }));
process.exit(0);
`;

/** The module in the middle of the chain: its function is defined there and called from the next one (2 files). */
const localModule = (files) => Math.floor(files / 2);

function inProcess(dir, runs, local) {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', IN_PROCESS, dir, String(runs), String(local)], { encoding: 'utf8', env: { ...process.env, TUG_NO_DAEMON: '1' } });
  return JSON.parse(out);
}

/**
 * The warm path: a daemon of its own (private runtime dir, so no other user of the machine's daemon is in the way)
 * asked once to load the project, then `runs` times per command; and the same analysis called in one process.
 */
function warmRuns(dir, runs, local) {
  const runtime = mkdtempSync(path.join(os.tmpdir(), 'tug-bench-rt-'));
  const env = { ...process.env, XDG_RUNTIME_DIR: runtime, TUG_DAEMON_AUTOSTART: '0' };
  delete env.TUG_NO_DAEMON;
  let daemonPid = 0;
  const call = (args) => {
    const before = daemonPid ? cpuOfPid(daemonPid) : 0;
    const started = performance.now();
    const timed = existsSync('/usr/bin/time');
    const out = timed ? execFileSync('/usr/bin/time', ['-f', '%U %S', '-o', cpuFile, TUG, ...args], { cwd: dir, encoding: 'utf8', env }) : execFileSync(TUG, args, { cwd: dir, encoding: 'utf8', env });
    const ms = performance.now() - started;
    const client = timed ? readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1).split(' ').reduce((sum, x) => sum + Number(x) * 1000, 0) : NaN;
    return { ms, cpu: client + (daemonPid ? cpuOfPid(daemonPid) - before : 0), json: JSON.parse(out) };
  };
  const cpuFile = path.join(runtime, 'cpu');
  const analyze = ['analyze-impact', 'rename-symbol', '--at', 'src/util.ts:1:17', '--to', 'step', '--json'];
  try {
    call(['daemon', 'start', '--json']);
    daemonPid = call(['daemon', 'status', '--json']).json.daemon.pid;
    call(analyze);
    const impact = [];
    const rename = [];
    const localRename = [];
    const afterEdit = [];
    const analysedAfterEdit = [];
    const renameAfterAnalysis = [];
    for (let i = 0; i < runs; i++) {
      impact.push(call(analyze));
      const run = call(['rename', 'src/util.ts:1:17', 'step', '--verify', 'none', '--json']);
      rename.push(run);
      execFileSync('git', ['branch', '-D', run.json.git.branch], { cwd: dir, stdio: 'ignore' });
      const small = call(['rename', `src/m${local}.ts:4:17`, `g${local}`, '--verify', 'none', '--json']);
      localRename.push(small);
      execFileSync('git', ['branch', '-D', small.json.git.branch], { cwd: dir, stdio: 'ignore' });
    }
    // After an edit: one file changed and committed, so the daemon's programs are new and nothing it remembers (places,
    // unsure lists, checks passed) answers. Each round a new name: its rename straight away, then (after another edit)
    // an agent's order, the analysis of a new name and then its rename.
    const edit = (label) => {
      appendFileSync(path.join(dir, `src/m${local}.ts`), `// ${label}\n`);
      execFileSync('git', ['commit', '-qam', label], { cwd: dir, stdio: 'ignore', env: { ...process.env, ...GIT_IDENTITY } });
    };
    const renameTo = (name, into) => {
      const run = call(['rename', 'src/util.ts:1:17', name, '--verify', 'none', '--json']);
      into.push(run);
      execFileSync('git', ['branch', '-D', run.json.git.branch], { cwd: dir, stdio: 'ignore' });
    };
    for (let i = 0; i < runs; i++) {
      edit(`edit ${i}`);
      renameTo(`stepAfterEdit${i}`, afterEdit);
      edit(`edit ${i} again`);
      const name = `stepAnalysed${i}`;
      analysedAfterEdit.push(call(['analyze-impact', 'rename-symbol', '--at', 'src/util.ts:1:17', '--to', name, '--json']));
      renameTo(name, renameAfterAnalysis);
    }
    const status = call(['daemon', 'status', '--json']).json.daemon;
    const inside = inProcess(dir, Math.max(runs, 5), local);
    return {
      impact: median(impact.map((r) => r.ms)),
      impactCpu: median(impact.map((r) => r.cpu)),
      rename: median(rename.map((r) => r.ms)),
      renameCpu: median(rename.map((r) => r.cpu)),
      inProcess: median(inside.wall),
      inProcessCpu: median(inside.cpu),
      inProcessRename: median(inside.renameWall),
      inProcessRenameCpu: median(inside.renameCpu),
      localRename: median(localRename.map((r) => r.ms)),
      localRenameCpu: median(localRename.map((r) => r.cpu)),
      afterEdit: median(afterEdit.map((r) => r.ms)),
      afterEditCpu: median(afterEdit.map((r) => r.cpu)),
      analysedAfterEdit: median(analysedAfterEdit.map((r) => r.ms)),
      analysedAfterEditCpu: median(analysedAfterEdit.map((r) => r.cpu)),
      renameAfterAnalysis: median(renameAfterAnalysis.map((r) => r.ms)),
      renameAfterAnalysisCpu: median(renameAfterAnalysis.map((r) => r.cpu)),
      inProcessLocal: median(inside.localWall),
      inProcessLocalCpu: median(inside.localCpu),
      coldLoads: status.warm.typescript_cold_loads,
      daemonMb: status.memory.daemon_bytes / 2 ** 20,
    };
  } finally {
    try {
      call(['daemon', 'stop', '--json']);
    } finally {
      rmSync(runtime, { recursive: true, force: true });
    }
  }
}

export async function typescriptBench(files = 500, runs = 3) {
  const dir = makeProject(files);
  try {
    const bare = [];
    const impact = [];
    const rename = [];
    const uncached = [];
    const cpu = { bare: [], impact: [], rename: [], uncached: [] };
    let refs = 0;
    let tsRefs = 0;
    for (let i = 0; i < runs; i++) {
      const server = await tsserverRename(dir);
      bare.push(server.ms);
      cpu.bare.push(server.cpu);
      tsRefs = server.count;
      const analysis = tugRun(dir, ['analyze-impact', 'rename-symbol', '--at', 'src/util.ts:1:17', '--to', 'step', '--json']);
      impact.push(analysis.ms);
      cpu.impact.push(analysis.cpu);
      refs = analysis.json.references.length;
      const run = tugRun(dir, ['rename', 'src/util.ts:1:17', 'step', '--verify', 'none', '--json']);
      rename.push(run.ms);
      cpu.rename.push(run.cpu);
      execFileSync('git', ['branch', '-D', run.json.git.branch], { cwd: dir, stdio: 'ignore' });
      // The same without the compiler's code cache (what a first run after an install pays).
      const first = tugRun(dir, ['rename', 'src/util.ts:1:17', 'step', '--verify', 'none', '--json'], { TUG_CODE_CACHE: '0' });
      uncached.push(first.ms);
      cpu.uncached.push(first.cpu);
      execFileSync('git', ['branch', '-D', first.json.git.branch], { cwd: dir, stdio: 'ignore' });
    }
    const cpuOf = (xs) => median(xs);
    return { files, runs, bare: median(bare), impact: median(impact), rename: median(rename), uncached: median(uncached), refs, tsRefs, cpu: { bare: cpuOf(cpu.bare), impact: cpuOf(cpu.impact), rename: cpuOf(cpu.rename), uncached: cpuOf(cpu.uncached) }, local: localModule(files), warm: warmRuns(dir, runs, localModule(files)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Issue 31's warm target: a rename on a 500-file project within 0.3 s, the daemon's figure counting its client process. */
const WARM_TARGET_MS = 300;

function warmTarget(r) {
  const verdict = (ms) => `${ms.toFixed(0)} ms (${ms <= WARM_TARGET_MS ? 'met' : 'not met'})`;
  return [
    `Warm target (issue 31: ≤ ${WARM_TARGET_MS} ms on a ${r.files}-file project, wall time, median): the rename of the function all ${r.files + 1} modules use through the daemon ${verdict(r.warm.rename)}, right after an edit ${verdict(r.warm.afterEdit)}, after an edit and its analysis ${verdict(r.warm.renameAfterAnalysis)}, inside one process ${verdict(r.warm.inProcessRename)}; the typical rename through the daemon ${verdict(r.warm.localRename)}. Load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} (1, 5, 15 min) at the end.`,
  ];
}

export function typescriptReport(r) {
  return [
    `## TypeScript rename: cold tug vs a bare tsserver (issue 31)`,
    '',
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC with \`node tests/bench/typescript.mjs ${r.files} ${r.runs}\` on ${os.cpus().length} cores (load average ${os.loadavg()[0].toFixed(1)}), Node ${process.version}: a generated project of ${r.files + 1} modules, one function used by all of them (${r.refs} places, tsserver ${r.tsRefs}); medians of ${r.runs} cold processes.`,
    '',
    '| what | median ms | vs tsserver | CPU ms | CPU vs tsserver |',
    '|---|---|---|---|---|',
    `| bare tsserver: start + open + rename | ${r.bare.toFixed(0)} | 1.00× | ${r.cpu.bare.toFixed(0)} | 1.00× |`,
    `| tug analyze-impact rename-symbol (snapshot, language service, unsure scan) | ${r.impact.toFixed(0)} | ${(r.impact / r.bare).toFixed(2)}× | ${r.cpu.impact.toFixed(0)} | ${(r.cpu.impact / r.cpu.bare).toFixed(2)}× |`,
    `| tug rename --verify none (plus the completeness check on the renamed text, result tree, commit) | ${r.rename.toFixed(0)} | ${(r.rename / r.bare).toFixed(2)}× | ${r.cpu.rename.toFixed(0)} | ${(r.cpu.rename / r.cpu.bare).toFixed(2)}× |`,
    `| the same with TUG_CODE_CACHE=0 (no compiler code cache: a first run) | ${r.uncached.toFixed(0)} | ${(r.uncached / r.bare).toFixed(2)}× | ${r.cpu.uncached.toFixed(0)} | ${(r.cpu.uncached / r.cpu.bare).toFixed(2)}× |`,
    '',
    `Warm (the language services kept by a daemon of the bench's own after one loading call; ${r.warm.coldLoads} cold load in it over all calls, daemon resident ${r.warm.daemonMb.toFixed(0)} MB):`,
    '',
    '| warm call | median ms | CPU ms |',
    '|---|---|---|',
    `| tug analyze-impact rename-symbol through the daemon (client process and daemon) | ${r.warm.impact.toFixed(0)} | ${r.warm.impactCpu.toFixed(0)} |`,
    `| the same analysis called inside one process (MCP server, library) | ${r.warm.inProcess.toFixed(0)} | ${r.warm.inProcessCpu.toFixed(0)} |`,
    `| tug rename --verify none through the daemon (check, result tree, commit; client and daemon) | ${r.warm.rename.toFixed(0)} | ${r.warm.renameCpu.toFixed(0)} |`,
    `| the same rename called inside one process (MCP server, library) | ${r.warm.inProcessRename.toFixed(0)} | ${r.warm.inProcessRenameCpu.toFixed(0)} |`,
    `| the same rename right after an edit (one file changed and committed; a new name): nothing remembered answers | ${r.warm.afterEdit.toFixed(0)} | ${r.warm.afterEditCpu.toFixed(0)} |`,
    `| after an edit, an agent's order: analyze-impact of a new name … | ${r.warm.analysedAfterEdit.toFixed(0)} | ${r.warm.analysedAfterEditCpu.toFixed(0)} |`,
    `| … then its rename | ${r.warm.renameAfterAnalysis.toFixed(0)} | ${r.warm.renameAfterAnalysisCpu.toFixed(0)} |`,
    `| a typical rename (\`f${r.local}\`: its module and the one that calls it) through the daemon | ${r.warm.localRename.toFixed(0)} | ${r.warm.localRenameCpu.toFixed(0)} |`,
    `| the same typical rename inside one process (MCP server, library) | ${r.warm.inProcessLocal.toFixed(0)} | ${r.warm.inProcessLocalCpu.toFixed(0)} |`,
    '',
    ...warmTarget(r),
    '',
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const files = Number(process.argv[2] ?? 500);
  const runs = Number(process.argv[3] ?? 3);
  process.stdout.write(`${typescriptReport(await typescriptBench(files, runs))}\n`);
}
