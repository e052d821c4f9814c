// The warm TypeScript path: a long-lived tug (library, daemon) keeps each repository's language services between calls, brings them up to a new snapshot by its changed files, and answers as a cold run does; the daemon counts them and evicts them over its limits.
import test from 'ava';
import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { realpathSync } from 'node:fs';
import { analyzeImpact, renameSymbol } from '../lib/index.js';
import { tsWarmCounts } from '../lib/typescript/warm.js';
import { openTsWorkspace } from '../lib/typescript/workspace.js';
import { planTsRename } from '../lib/typescript/rename-plan.js';
import { discoverRepo } from '../lib/git/repo.js';
import { enforceLimits, type RepoUse } from '../lib/daemon/budget.js';
import { DEFAULT_DAEMON_SETTINGS } from '../lib/daemon/settings.js';
import { liveHelpers, trackHelper } from '../lib/ops/resources.js';
import { makeRepo } from './helpers/repo.js';
import { tug } from './helpers/cli.js';
import { countSearches, TS_ENV, tsFixture } from './helpers/typescript.js';

const AT = { file: 'src/geometry.ts', line: 8, column: 17 };
const ANALYZE = ['analyze-impact', 'rename-symbol', '--at', 'src/geometry.ts:8:17', '--to', 'span'];
type Impact = { references: Array<{ location: { file: string; line: number } }> };
const refs = (r: Impact) => r.references.map((x) => `${x.location.file}:${x.location.line}`);
/** analyze-impact's library input is typed loosely (every refactor's fields), its answer as a union: a rename's here. */
const impactOf = async (root: string) => (await analyzeImpact({ workspace: root, operation: 'rename_symbol', ...AT, new_name: 'span' } as Parameters<typeof analyzeImpact>[0])) as unknown as Impact;

test.serial('the library keeps the language service between calls and follows edits, new and deleted files as a cold run does', async (t) => {
  const repo = await tsFixture('shapes');
  const impact = () => impactOf(repo.root);
  const cold = async () => JSON.parse((await tug(repo.root, [...ANALYZE, '--json'], { env: TS_ENV })).stdout);
  const before = tsWarmCounts();
  const first = await impact();
  t.deepEqual(refs(first), ['src/geometry.ts:8', 'src/geometry.ts:20', 'src/index.ts:1']);
  const second = await impact();
  t.deepEqual(second, first);
  let now = tsWarmCounts();
  t.is(now.cold, before.cold + 1, 'the second call built nothing');
  t.is(now.reused, before.reused + 1, 'it answered from the kept services');

  await repo.write('src/labels.ts', `import { distance } from './geometry.js';\n${await repo.readText('src/labels.ts')}\nexport const far = distance({ x: 1, y: 1 }, { x: 2, y: 2 });\n`);
  const edited = await impact();
  t.deepEqual(edited, await cold(), 'an edited file is read again');
  t.is(edited.references.length, first.references.length + 2);
  await writeFile(path.join(repo.root, 'src', 'extra.ts'), "import { distance as d } from './geometry.js';\nexport const e = d({ x: 0, y: 0 }, { x: 3, y: 4 });\n");
  const added = await impact();
  t.deepEqual(added, await cold(), 'a new file joins the project');
  t.true(refs(added).includes('src/extra.ts:1'));
  await unlink(path.join(repo.root, 'src', 'extra.ts'));
  const removed = await impact();
  t.deepEqual(removed, edited, 'a deleted file leaves it');
  now = tsWarmCounts();
  t.is(now.cold, before.cold + 1, 'edits, a new file and a deleted one were followed without starting over');
  t.is(now.updated, before.updated + 3);

  // A committed rename checks the renamed text through the same services; the next answer is the snapshot's again.
  const run = await renameSymbol({ workspace: repo.root, ...AT, new_name: 'span', verify: 'none' });
  t.is(run.status, 'ok');
  const renameAgain = await renameSymbol({ workspace: repo.root, ...AT, new_name: 'gap', verify: 'none' });
  t.is(renameAgain.status, 'ok');
  t.deepEqual(await impact(), edited);
  t.is(tsWarmCounts().cold, before.cold + 1);
  await repo.cleanup();
});

test.serial('a changed tsconfig.json is followed: the projects are rebuilt over the parsed files kept', async (t) => {
  const repo = await tsFixture('shapes');
  const impact = () => impactOf(repo.root);
  const first = await impact();
  t.true(refs(first).includes('src/index.ts:1'));
  const before = tsWarmCounts();
  const config = JSON.parse(await repo.readText('tsconfig.json')) as { exclude?: string[] };
  await repo.write('tsconfig.json', JSON.stringify({ ...config, exclude: ['src/index.ts'] }, null, 2));
  const narrowed = await impact();
  t.deepEqual(narrowed, JSON.parse((await tug(repo.root, [...ANALYZE, '--json'], { env: TS_ENV })).stdout));
  t.is(tsWarmCounts().cold, before.cold, 'not built from nothing');
  t.is(tsWarmCounts().updated, before.updated + 1);
  await repo.cleanup();
});

test.serial('over the allowed count, and over the memory budget, warm TypeScript projects go least recently used first', async (t) => {
  const repos = await Promise.all([0, 1, 2].map(() => makeRepo({ 'a.txt': 'x\n' })));
  const git = repos.map((r) => realpathSync(path.join(r.root, '.git')));
  const now = Date.now();
  const uses = new Map<string, RepoUse>(git.map((g, i) => [g, { lastUsed: now - (i + 1) * 60_000, requests: 1, active: 0 }]));
  const stopped: string[] = [];
  for (const [i, repo] of repos.entries()) {
    let alive = true;
    trackHelper({ kind: 'typescript_project', scope: repo.root, alive: () => alive, stop: async () => void ((alive = false), stopped.push(`ts${i}`)) });
  }
  const evicted = await enforceLimits(uses, { ...DEFAULT_DAEMON_SETTINGS, memoryBytes: 2 ** 40 }, now);
  t.deepEqual(stopped, ['ts2'], 'the least recently used of three, with two allowed');
  t.true(evicted.some((line) => line.includes('more than 2 TypeScript projects')), evicted.join('; '));
  await enforceLimits(uses, { ...DEFAULT_DAEMON_SETTINGS, memoryBytes: 1 }, now);
  t.deepEqual(stopped, ['ts2', 'ts1', 'ts0'], 'over the budget, the rest go, oldest first');
  t.is(liveHelpers().filter((h) => h.kind === 'typescript_project').length, 0);
  await Promise.all(repos.map((r) => r.cleanup()));
});

/** A daemon of its own (runtime and config dirs), stopped by the test. */
async function privateDaemon(config = '') {
  const home = await mkdtemp(path.join(os.tmpdir(), 'tug-rt-'));
  await mkdir(path.join(home, 'config', 'tug'), { recursive: true });
  await mkdir(path.join(home, 'run'), { mode: 0o700 });
  await writeFile(path.join(home, 'config', 'tug', 'config.toml'), config);
  const env = { TUG_LOCK_TIMEOUT_MS: '2000', XDG_RUNTIME_DIR: path.join(home, 'run'), XDG_CONFIG_HOME: path.join(home, 'config') };
  const run = (cwd: string, args: string[], more: Record<string, string> = {}) => tug(cwd, args, { env: { ...env, ...more } });
  const status = async () => (await run(os.tmpdir(), ['daemon', 'status'])).json.daemon;
  const stop = async () => {
    await run(os.tmpdir(), ['daemon', 'stop']);
    await rm(home, { recursive: true, force: true });
  };
  return { run, status, stop };
}

async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> {
  for (const deadline = Date.now() + ms; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
  }
}

test.serial('the daemon answers a second TypeScript call from the services it kept, and evicts them over a small memory budget', async (t) => {
  const repo = await tsFixture('shapes');
  const roomy = await privateDaemon();
  const tight = await privateDaemon('[daemon]\nmemory_mb = 50\n');
  try {
    await roomy.run(repo.root, ['daemon', 'start']);
    const first = await roomy.run(repo.root, ANALYZE);
    t.is(first.exitCode, 0, first.stdout + first.stderr);
    const second = await roomy.run(repo.root, ANALYZE);
    t.is(second.stdout, first.stdout);
    const cold = await roomy.run(repo.root, ANALYZE, { TUG_NO_DAEMON: '1' });
    t.is(cold.stdout, first.stdout, 'what a cold run prints');
    const status = await until(() => roomy.status(), (s) => s.in_flight === 0, 5_000);
    t.is(status.requests, 2);
    t.is(status.warm.typescript_cold_loads, 1, 'the second call built no language service');
    t.is(status.warm.typescript_projects, 1);
    t.is(status.repositories[0].typescript_projects, 1);
    t.is(status.memory.typescript_projects_allowed, 2);

    await tight.run(repo.root, ['daemon', 'start']);
    t.is((await tight.run(repo.root, ANALYZE)).exitCode, 0);
    const evicted = await until(() => tight.status(), (s) => s.warm.typescript_projects === 0, 10_000);
    t.is(evicted.warm.typescript_projects, 0, 'over the budget the project was let go');
    t.is(evicted.warm.typescript_cold_loads, 1);
    const again = await tight.run(repo.root, ANALYZE);
    t.is(again.stdout, first.stdout, 'an evicted repository still answers, from a new build');
    t.is((await until(() => tight.status(), (s) => s.in_flight === 0, 5_000)).warm.typescript_cold_loads, 2);
  } finally {
    await Promise.all([roomy.stop(), tight.stop()]);
    await repo.cleanup();
  }
});

test.serial('the completeness check type-checks only the files where the new name can meet another declaration, and still finds every duplicate', async (t) => {
  const repo = await makeRepo({
    'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'ES2022', moduleResolution: 'Bundler', noEmit: true } }),
    // Global scripts share one scope: a constant renamed in one is declared twice with one of the other, though b.ts
    // never had the word; only the type check sees it (each constant is a symbol of its own, so no place is captured).
    'global/a.ts': 'const shared = 1;\n',
    'global/b.ts': 'const other = 2;\n',
    'mod/m.ts': 'export const first = 1;\nexport const second = 2;\n',
    'mod/use.ts': "import { second } from './m.js';\nexport const v = second;\n",
  });
  const rename = (file: string, line: number, column: number, new_name: string) => renameSymbol({ workspace: repo.root, file, line, column, new_name, verify: 'none' });
  const global = await t.throwsAsync(rename('global/b.ts', 1, 7, 'shared'));
  t.is((global as { code?: string }).code, 'NameConflict', global?.message);
  const inModule = await t.throwsAsync(rename('mod/m.ts', 2, 14, 'first'));
  t.is((inModule as { code?: string }).code, 'NameConflict', inModule?.message);
  const fine = await rename('mod/m.ts', 2, 14, 'third');
  t.is(fine.status, 'ok');
  await repo.cleanup();
});

test.serial('the completeness check leaves the kept services on the snapshot files: a committed rename makes nothing be parsed again', async (t) => {
  const repo = await tsFixture('shapes');
  const gitRepo = await discoverRepo(repo.root);
  const tree = await repo.git('rev-parse', 'HEAD^{tree}');
  const ws = await openTsWorkspace(gitRepo, tree, AT.file);
  const project = ws.containing(AT.file)[0]!;
  const files = ['src/geometry.ts', 'src/index.ts'].map((f) => ws.fs.absolute(f));
  const sources = () => files.map((f) => project.service.getProgram()!.getSourceFile(f));
  const before = sources();
  const plan = await planTsRename({ repo: gitRepo, tree, target: { file: AT.file, line: AT.line, col: AT.column }, newName: 'span', check: true });
  t.deepEqual([...new Set(plan.edits.map((e) => e.file))].sort(), ['src/geometry.ts', 'src/index.ts'], 'the check saw both renamed files');
  const after = sources();
  t.true(before.every((s) => s !== undefined));
  t.true(after.every((s, i) => s === before[i]), 'the service is back on the very files it parsed for the snapshot');
  await repo.cleanup();
});

test.serial("a program built again (the completeness check's renamed text, and back) does not read the compiler's lib files again", async (t) => {
  const repo = await tsFixture('shapes');
  const gitRepo = await discoverRepo(repo.root);
  const tree = await repo.git('rev-parse', 'HEAD^{tree}');
  const ws = await openTsWorkspace(gitRepo, tree, AT.file);
  const project = ws.containing(AT.file)[0]!;
  const program = project.service.getProgram()!;
  const libs = program.getSourceFiles().filter((s) => ws.fs.relative(s.fileName) === null);
  t.true(libs.length > 0, 'the program holds the compiler lib files');
  const read = ws.fs.readFile.bind(ws.fs);
  const outside: string[] = [];
  ws.fs.readFile = (absolute: string) => {
    if (ws.fs.relative(absolute) === null && absolute.endsWith('.d.ts')) outside.push(absolute);
    return read(absolute);
  };
  try {
    const file = ws.fs.absolute('src/index.ts');
    ws.projects.overlay.set(file, { text: `${read(file)}\nexport const extra = [1].map((n) => n + 1);\n`, version: 1 });
    const renamed = project.service.getProgram()!;
    t.not(renamed, program, 'a new program for the new text');
    t.deepEqual(project.service.getSemanticDiagnostics(file).map((d) => d.code), [], 'the lib types are still there');
    ws.projects.overlay.delete(file);
    project.service.getProgram();
    t.deepEqual(outside, [], 'no lib file was read again');
  } finally {
    ws.fs.readFile = read;
    await repo.cleanup();
  }
});

test.serial("a project resolves its imports once across programs, and a text put in for a new file is resolved only while it is there", async (t) => {
  const repo = await tsFixture('shapes');
  const gitRepo = await discoverRepo(repo.root);
  const tree = await repo.git('rev-parse', 'HEAD^{tree}');
  const ws = await openTsWorkspace(gitRepo, tree, AT.file);
  const project = ws.containing(AT.file)[0]!;
  project.service.getProgram();
  const exists = ws.fs.fileExists.bind(ws.fs);
  const asked: string[] = [];
  ws.fs.fileExists = (absolute: string) => {
    // The changed file itself is asked about by the service; its imports' targets only by module resolution.
    if (ws.fs.relative(absolute) !== null && ws.fs.relative(absolute) !== 'src/index.ts') asked.push(ws.fs.relative(absolute)!);
    return exists(absolute);
  };
  const index = ws.fs.absolute('src/index.ts');
  const text = ws.fs.readFile(index)!;
  try {
    // The completeness check's kind of text: the same imports, other names.
    ws.projects.overlay.set(index, { text: `${text}\nexport const renamedHere = 1;\n`, version: 1 });
    project.service.getProgram();
    t.deepEqual(asked, [], 'the imports of the changed file were not looked up again');
    ws.projects.overlay.delete(index);
    project.service.getProgram();
    t.deepEqual(asked, []);

    // A move's new module: resolved while its text is put in, unknown again once it is taken out.
    const added = ws.fs.absolute('src/added.ts');
    const importing = `${text}\nimport { extra } from './added.js';\nexport const useIt = extra;\n`;
    ws.projects.overlay.set(added, { text: 'export const extra = 1;\n', version: 1 });
    ws.projects.overlay.set(index, { text: importing, version: 1 });
    t.deepEqual(project.service.getSemanticDiagnostics(index).map((d) => d.code), [], './added.js resolves while it is put in');
    ws.projects.overlay.delete(added);
    ws.projects.overlay.set(index, { text: importing, version: 1 });
    t.true(project.service.getSemanticDiagnostics(index).some((d) => d.code === 2307), 'and not once it is gone: the kept resolutions did not learn it');
    ws.projects.overlay.delete(index);
  } finally {
    ws.fs.fileExists = exists;
    await repo.cleanup();
  }
});

test.serial('a rename asked at a use searches from the declaration once', async (t) => {
  const repo = await tsFixture('shapes');
  const gitRepo = await discoverRepo(repo.root);
  const tree = await repo.git('rev-parse', 'HEAD^{tree}');
  const ws = await openTsWorkspace(gitRepo, tree, AT.file);
  const projects = ws.projects.all(ws.scripts, ws.configs);
  const searches: string[] = [];
  const originals = projects.map((p) => p.service.findRenameLocations.bind(p.service));
  projects.forEach((p, i) => {
    p.service.findRenameLocations = ((file: string, position: number, ...rest: never[]) => {
      searches.push(`${ws.fs.relative(file)}:${position}`);
      return (originals[i] as (...args: unknown[]) => ReturnType<typeof p.service.findRenameLocations>)(file, position, ...rest);
    }) as typeof p.service.findRenameLocations;
  });
  try {
    // `distance(this.center, point)` in Circle.contains: a use of the function declared at 8:17.
    const plan = await planTsRename({ repo: gitRepo, tree, target: { file: AT.file, line: 20, col: 12 }, newName: 'span' });
    t.deepEqual(plan.references.map((r) => `${r.location.file}:${r.location.line}`).sort(), ['src/geometry.ts:20', 'src/geometry.ts:8', 'src/index.ts:1']);
    t.is(new Set(searches).size, searches.length, `no place was searched twice: ${searches.join(', ')}`);
  } finally {
    projects.forEach((p, i) => (p.service.findRenameLocations = originals[i]!));
    await repo.cleanup();
  }
});

test.serial("the completeness check runs on services of its own: the kept program is not rebuilt, and each check sees the snapshot's edits, new files and config", async (t) => {
  const repo = await tsFixture('shapes');
  const gitRepo = await discoverRepo(repo.root);
  const tree = await repo.git('rev-parse', 'HEAD^{tree}');
  const ws = await openTsWorkspace(gitRepo, tree, AT.file);
  const cold = tsWarmCounts().cold;
  const project = ws.containing(AT.file)[0]!;
  const program = project.service.getProgram();
  const plan = await planTsRename({ repo: gitRepo, tree, target: { file: AT.file, line: AT.line, col: AT.column }, newName: 'span', check: true });
  t.is(plan.edits.length, 3);
  t.is(project.service.getProgram(), program, 'the analyses keep their program (and its checker) through a check');

  const rename = () => renameSymbol({ workspace: repo.root, ...AT, new_name: 'span', verify: 'none' });
  const code = async () => ((await t.throwsAsync(rename())) as { code?: string } | undefined)?.code;
  t.is((await rename()).status, 'ok');
  const geometry = await repo.readText('src/geometry.ts');
  await repo.write('src/geometry.ts', `${geometry}export const span = 3;\n`);
  t.is(await code(), 'NameConflict', 'an edit made between two warm calls is checked');
  await repo.write('src/geometry.ts', geometry);
  t.is((await rename()).status, 'ok', 'and its undoing too');
  // A new file whose import NodeNext leaves unresolved in this ES module package (no extension): not a use, until the
  // config resolves it as a bundler does; then its call meets the parameter named like the new name.
  await repo.write('src/extra.ts', "import { distance } from './geometry';\nexport function around(span: number): number {\n  return distance({ x: 0, y: 0 }, { x: span, y: 0 });\n}\n");
  t.is((await rename()).status, 'ok', 'a new file that does not reach the symbol');
  const config = JSON.parse(await repo.readText('tsconfig.json')) as { compilerOptions: Record<string, unknown> };
  await repo.write('tsconfig.json', JSON.stringify({ ...config, compilerOptions: { ...config.compilerOptions, module: 'ES2022', moduleResolution: 'Bundler' } }, null, 2));
  t.is(await code(), 'IncompleteRename', 'a config that makes it reach the symbol is followed');
  t.is(tsWarmCounts().cold, cold, 'all of it from the kept workspace, brought up to each snapshot');
  await repo.cleanup();
});

test.serial('a rename after its analysis on the same programs searches once (other analyses in between), answers the same, and searches again after an edit', async (t) => {
  const repo = await tsFixture('shapes');
  const gitRepo = await discoverRepo(repo.root);
  const tree = await repo.git('rev-parse', 'HEAD^{tree}');
  const ws = await openTsWorkspace(gitRepo, tree, AT.file);
  const projects = ws.projects.all(ws.scripts, ws.configs);
  const searched = countSearches(projects);
  const target = { file: AT.file, line: AT.line, col: AT.column };
  try {
    const analysis = await planTsRename({ repo: gitRepo, tree, target, newName: 'span' });
    t.true(searched.count() > 0);
    t.true(analysis.unsure.length > 0, 'the fixture has a place only a string names');
    const counted = searched.count();
    const committed = await planTsRename({ repo: gitRepo, tree, target, newName: 'span', check: true });
    t.is(searched.count(), counted, 'the rename took the analysis it had on the same programs');
    t.deepEqual(committed, analysis);
    // What a caller does with its answer does not reach the next one.
    committed.unsure[0]!.text = 'changed';
    committed.edits.length = 0;
    t.deepEqual(await planTsRename({ repo: gitRepo, tree, target, newName: 'span', check: true }), analysis);
    // Another symbol's analysis in between: both answers are kept.
    await planTsRename({ repo: gitRepo, tree, target: { file: AT.file, line: 6, col: 14 }, newName: 'ZERO' });
    t.true(searched.count() > counted, 'another symbol is searched');
    const withOther = searched.count();
    t.deepEqual(await planTsRename({ repo: gitRepo, tree, target, newName: 'span', check: true }), analysis);
    t.is(searched.count(), withOther, 'the first one is still known after another in between');

    await repo.write('src/labels.ts', `import { distance } from './geometry.js';\n${await repo.readText('src/labels.ts')}\nexport const far = distance({ x: 1, y: 1 }, { x: 2, y: 2 });\n`);
    await repo.git('add', '-A');
    const edited = await repo.git('write-tree');
    const after = await planTsRename({ repo: gitRepo, tree: edited, target, newName: 'span', check: true });
    t.true(searched.count() > counted, 'a new snapshot is searched');
    t.is(after.references.length, analysis.references.length + 2);
  } finally {
    searched.restore();
    await repo.cleanup();
  }
});

test.serial('a rename checked on the same programs is not checked again, other renames in between; an edit, and a check that failed, check again', async (t) => {
  const repo = await tsFixture('shapes');
  const gitRepo = await discoverRepo(repo.root);
  const tree = await repo.git('rev-parse', 'HEAD^{tree}');
  const ws = await openTsWorkspace(gitRepo, tree, AT.file);
  // The check searches the renamed text on each project's trial service: its searches are the checks run.
  const trials = ws.projects.all(ws.scripts, ws.configs).map((p) => p.trial().service);
  let checks = 0;
  const originals = trials.map((s) => s.findRenameLocations.bind(s));
  trials.forEach((s, i) => {
    s.findRenameLocations = ((...args: never[]) => {
      checks += 1;
      return (originals[i] as (...a: unknown[]) => ReturnType<typeof s.findRenameLocations>)(...args);
    }) as typeof s.findRenameLocations;
  });
  const target = { file: AT.file, line: AT.line, col: AT.column };
  const plan = (newName: string, at = tree) => planTsRename({ repo: gitRepo, tree: at, target, newName, check: true });
  try {
    const first = await plan('span');
    t.true(checks > 0);
    let counted = checks;
    t.deepEqual(await plan('span'), first, 'the same answer');
    t.is(checks, counted, 'asked again on the same programs: not checked again');
    await plan('gap');
    t.true(checks > counted, 'another rename is checked');
    counted = checks;
    t.deepEqual(await plan('span'), first);
    t.is(checks, counted, 'the first one is still known after another in between');

    const geometry = await repo.readText('src/geometry.ts');
    await repo.write('src/geometry.ts', `${geometry}export const span = 3;\n`);
    await repo.git('add', '-A');
    const edited = await repo.git('write-tree');
    const conflict = async () => ((await t.throwsAsync(plan('span', edited))) as { code?: string } | undefined)?.code;
    t.is(await conflict(), 'NameConflict', 'a new snapshot is checked');
    counted = checks;
    t.is(await conflict(), 'NameConflict', 'and a failed check is not taken as passed');
    t.true(checks > counted, 'it ran again');
  } finally {
    trials.forEach((s, i) => (s.findRenameLocations = originals[i]!));
    await repo.cleanup();
  }
});
