// TypeScript/JavaScript verification: every changed script parses (in-process, tug's compiler), `tsc` for each config that covers a changed file (the project's own compiler when installed), and the package's `test` script.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadTypeScript, projectTypeScript } from '../typescript/load.js';
import { isScriptFile } from '../typescript/files.js';
import type { CheckResult } from './run-check.js';

/** npm init's placeholder test script: no tests. */
const NO_TESTS = /no test specified/;

const readJson = async (file: string): Promise<Record<string, unknown> | null> => {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
};

/** Parses each file with tug's compiler; no program, no type information, nothing of the project runs. */
export async function checkScriptSyntax(cwd: string, files: readonly string[]): Promise<CheckResult> {
  const started = Date.now();
  const { ts } = loadTypeScript(null);
  const errors: NonNullable<CheckResult['errors']> = [];
  for (const file of files) {
    const text = await readFile(path.join(cwd, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, scriptKind(ts, file));
    // parseDiagnostics is the parser's own list (what `tsc` reports as syntax errors); it is not in the public types.
    for (const d of (source as unknown as { parseDiagnostics: import('typescript').Diagnostic[] }).parseDiagnostics) {
      const at = source.getLineAndCharacterOfPosition(d.start ?? 0);
      errors.push({ file, line: at.line + 1, col: Buffer.byteLength(source.text.slice(source.getPositionOfLineAndCharacter(at.line, 0), d.start ?? 0)) + 1, message: ts.flattenDiagnosticMessageText(d.messageText, '\n') });
    }
  }
  return { name: 'typescript-syntax', status: errors.length > 0 ? 'failed' : 'passed', command: ['typescript', 'parse', ...files], errors, duration_ms: Date.now() - started };
}

function scriptKind(ts: typeof import('typescript'), file: string): import('typescript').ScriptKind {
  if (file.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (file.endsWith('.jsx')) return ts.ScriptKind.JSX;
  if (/\.[cm]?js$/.test(file)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

/** The nearest tsconfig.json (else jsconfig.json) above each changed script, as sandbox-relative paths. */
export async function coveringConfigs(cwd: string, changedFiles: readonly string[]): Promise<string[]> {
  const configs = new Set<string>();
  for (const file of changedFiles.filter(isScriptFile)) {
    for (let dir = path.posix.dirname(file); ; dir = path.posix.dirname(dir)) {
      const base = dir === '.' ? '' : `${dir}/`;
      const found = (await readJsonText(path.join(cwd, `${base}tsconfig.json`))) !== null ? `${base}tsconfig.json` : (await readJsonText(path.join(cwd, `${base}jsconfig.json`))) !== null ? `${base}jsconfig.json` : null;
      if (found) {
        configs.add(found);
        break;
      }
      if (dir === '.') break;
    }
  }
  return [...configs].sort();
}

const readJsonText = (file: string) => readFile(file, 'utf8').catch(() => null);

/** Each config as JSON (comments and trailing commas allowed, as tsc reads it), for the isolation audit. */
export async function readConfigs(cwd: string, configs: readonly string[]): Promise<Map<string, unknown>> {
  const { ts } = loadTypeScript(null);
  const out = new Map<string, unknown>();
  for (const config of configs) {
    const text = await readJsonText(path.join(cwd, config));
    if (text !== null) out.set(config, ts.parseConfigFileTextToJson(config, text).config ?? null);
  }
  return out;
}

/** `tsc` for one config: build mode when it has project references (or is composite), else `--noEmit -p`. */
export function tscArgv(cwd: string, config: string, json: unknown): string[] {
  const configDir = path.dirname(path.join(cwd, config));
  const own = projectTypeScript(cwd, configDir, () => false);
  const compiler = own ?? loadTypeScript(null).dir;
  const options = (json as { compilerOptions?: { composite?: boolean }; references?: unknown[] } | null) ?? {};
  const build = (options.references?.length ?? 0) > 0 || options.compilerOptions?.composite === true;
  const tsc = [process.execPath, path.join(compiler, 'bin', 'tsc')];
  return build ? [...tsc, '-b', path.join(cwd, config), '--pretty', 'false'] : [...tsc, '--noEmit', '-p', path.join(cwd, config), '--pretty', 'false'];
}

/** `file(line,col): error TSnnnn: message` lines of `tsc --pretty false` as structured errors. */
export function parseTscOutput(output: string, cwd: string): NonNullable<CheckResult['errors']> {
  const errors: NonNullable<CheckResult['errors']> = [];
  for (const m of output.matchAll(/^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/gm)) {
    const file = path.isAbsolute(m[1]!) ? path.relative(cwd, m[1]!) : m[1]!;
    errors.push({ file: file.split(path.sep).join('/'), line: Number(m[2]), col: Number(m[3]), message: `${m[4]}: ${m[5]}` });
  }
  return errors;
}

export interface NodeTestScript {
  /** Sandbox-relative package dir ('' for the root). */
  dir: string;
  script: string;
}

/** For the changed files, the nearest package.json above each with a real `test` script (once per package). */
export async function nodeTestScripts(cwd: string, changedFiles: readonly string[]): Promise<NodeTestScript[]> {
  const found = new Map<string, string>();
  for (const file of changedFiles) {
    for (let dir = path.posix.dirname(file); ; dir = path.posix.dirname(dir)) {
      const rel = dir === '.' ? '' : dir;
      const manifest = await readJson(path.join(cwd, rel, 'package.json'));
      const script = (manifest?.['scripts'] as Record<string, unknown> | undefined)?.['test'];
      if (typeof script === 'string' && !NO_TESTS.test(script)) {
        found.set(rel, script);
        break;
      }
      if (dir === '.') break;
    }
  }
  return [...found].sort(([a], [b]) => (a < b ? -1 : 1)).map(([dir, script]) => ({ dir, script }));
}

/** npm's environment for a script: the package's and the root's node_modules/.bin first on PATH. */
export function scriptEnv(cwd: string, dir: string, baseEnv: Record<string, string>): Record<string, string> {
  const bins = [...new Set([path.join(cwd, dir, 'node_modules', '.bin'), path.join(cwd, 'node_modules', '.bin')])];
  return { PATH: [...bins, baseEnv['PATH'] ?? ''].join(path.delimiter), npm_lifecycle_event: 'test', NODE_ENV: baseEnv['NODE_ENV'] ?? 'test' };
}
