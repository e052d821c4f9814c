// Verification of a sandbox: syntax of the changed files (Python compile, cargo check), then the project's tests, then a type checker, per --verify.
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { checkPythonSyntax, resolvePython } from './python.js';
import { cargoChecks } from './cargo.js';
import { runCheck, type CheckResult } from './run-check.js';
import { throwIfCancelled } from '../core/cancel.js';

export const VERIFY_MODES = ['none', 'syntax', 'tests', 'typecheck'] as const;
export type VerifyMode = (typeof VERIFY_MODES)[number];

export interface VerifyRequest {
  mode: VerifyMode;
  /** Directory the checks run in (a sandbox worktree). */
  cwd: string;
  /** Repo-relative paths of files the operation changed. */
  changedFiles: readonly string[];
  python?: string;
  /** Session dir, for the sticky interpreter and the managed venv. */
  sessionDir?: string;
  /** argv with {python} and {workspace} placeholders. */
  testCommand?: string[];
  typecheckCommand?: string[];
  timeoutMs?: number;
  /** Cancels the run: the running check's process group is killed and verify throws Cancelled. */
  signal?: AbortSignal;
}

export interface Verification {
  status: 'passed' | 'failed' | 'skipped';
  mode: VerifyMode;
  checks: CheckResult[];
}

export const DEFAULT_CHECK_TIMEOUT_MS = 300_000;

export async function verify(request: VerifyRequest): Promise<Verification> {
  if (request.mode === 'none') return { status: 'skipped', mode: 'none', checks: [] };
  const timeoutMs = request.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const checks: CheckResult[] = [];
  const pythonFiles = request.changedFiles.filter((f) => f.endsWith('.py') || f.endsWith('.pyi'));
  let python: string | undefined;
  const needPython = async () => (python ??= (await resolvePython(request.python, request.sessionDir)).path);
  if (pythonFiles.length > 0) {
    const present = await existing(request.cwd, pythonFiles);
    if (present.length > 0) checks.push(await checkPythonSyntax(await needPython(), request.cwd, present, timeoutMs));
  }
  const rust = request.changedFiles.some((f) => f.endsWith('.rs') || path.posix.basename(f) === 'Cargo.toml');
  if (rust) {
    checks.push(...(await cargoChecks({ mode: request.mode, cwd: request.cwd, changedFiles: request.changedFiles, sessionDir: request.sessionDir, timeoutMs, testCommandConfigured: Boolean(request.testCommand) })));
  }
  const cargoFailed = rust && checks.some((c) => c.status === 'failed');
  if ((request.mode === 'tests' || request.mode === 'typecheck') && !(rust && !request.testCommand) && !cargoFailed) {
    const argv = request.testCommand ?? (await detectTestCommand(request.cwd));
    checks.push(
      argv
        ? await runCheck({ name: 'tests', argv: await template(argv, request.cwd, needPython), cwd: request.cwd, timeoutMs, signal: request.signal })
        : skipped('tests', 'no test command configured or detected (pass --test-command)'),
    );
  }
  if (request.mode === 'typecheck' && !(rust && !request.typecheckCommand)) {
    checks.push(
      request.typecheckCommand
        ? await runCheck({ name: 'typecheck', argv: await template(request.typecheckCommand, request.cwd, needPython), cwd: request.cwd, timeoutMs, signal: request.signal })
        : skipped('typecheck', 'no type checker configured (pass --typecheck-command)'),
    );
  }
  throwIfCancelled(request.signal, 'during verification');
  const failed = checks.some((c) => c.status === 'failed');
  return { status: failed ? 'failed' : 'passed', mode: request.mode, checks };
}

function skipped(name: string, reason: string): CheckResult {
  return { name, status: 'skipped', reason, duration_ms: 0 };
}

async function existing(cwd: string, files: readonly string[]): Promise<string[]> {
  const present: string[] = [];
  for (const file of files) if (await access(path.join(cwd, file)).then(() => true, () => false)) present.push(file);
  return present;
}

async function template(argv: readonly string[], cwd: string, python: () => Promise<string>): Promise<string[]> {
  const out: string[] = [];
  for (const arg of argv) {
    let value = arg.replaceAll('{workspace}', cwd);
    if (value.includes('{python}')) value = value.replaceAll('{python}', await python());
    out.push(value);
  }
  return out;
}

/** Seed D11's detection order, plus cargo for Rust crates. */
export async function detectTestCommand(cwd: string): Promise<string[] | undefined> {
  const read = (name: string) => readFile(path.join(cwd, name), 'utf8').catch(() => '');
  const exists = (name: string) => access(path.join(cwd, name)).then(() => true, () => false);
  if ((await read('pyproject.toml')).includes('[tool.pytest')) return ['{python}', '-m', 'pytest', '-q'];
  if (await exists('pytest.ini')) return ['{python}', '-m', 'pytest', '-q'];
  if ((await read('setup.cfg')).includes('[tool:pytest]') || (await read('tox.ini')).includes('[pytest]')) return ['{python}', '-m', 'pytest', '-q'];
  if (await exists('Cargo.toml')) return ['cargo', 'test', '--quiet'];
  if (await exists('tests')) return ['{python}', '-m', 'pytest', '-q'];
  return undefined;
}

