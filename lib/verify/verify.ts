// Verification of a sandbox: syntax of the changed files (Python compile, cargo check), then the tests of every language the change touches, then a type checker, per --verify.
import { access } from 'node:fs/promises';
import path from 'node:path';
import { checkPythonSyntax } from './python.js';
import { resolvePython } from '../python/interpreter.js';
import { cargoChecks } from './cargo.js';
import { runCheck, type CheckProgress, type CheckResult } from './run-check.js';
import { callerEnvironment, sandboxEnv } from './sandbox-env.js';
import { canImportPytest, detectPythonTests } from './test-runner.js';
import { throwIfCancelled } from '../core/cancel.js';

export const VERIFY_MODES = ['none', 'syntax', 'tests', 'typecheck'] as const;
export type VerifyMode = (typeof VERIFY_MODES)[number];

export interface VerifyRequest {
  mode: VerifyMode;
  /** Directory the checks run in (a sandbox checkout). */
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
  /** Extra variable names or globs the checks may see (user config, or a trusted repository's allow_env). */
  allowEnv?: readonly string[];
  /**
   * The mode is the default of a repository the user has not trusted: tests (the repository's code) do not run, and
   * where the project has tests the result says so and how to run them.
   */
  testsNeedTrust?: boolean;
  /** Cancels the run: the running check's process group is killed and verify throws Cancelled. */
  signal?: AbortSignal;
  /** A running check's heartbeat (every few seconds), for front doors that must show the caller the work goes on. */
  onProgress?: (progress: CheckProgress) => void;
}

export interface Verification {
  status: 'passed' | 'failed' | 'skipped';
  mode: VerifyMode;
  checks: CheckResult[];
}

export const DEFAULT_CHECK_TIMEOUT_MS = 300_000;

export const UNTRUSTED_TESTS_REASON =
  "not run: the default verification runs the project's tests only in a repository you trusted (they run its code); run `tug trust`, or pass --verify tests";

const isRust = (file: string) => file.endsWith('.rs') || path.posix.basename(file) === 'Cargo.toml';

export async function verify(request: VerifyRequest): Promise<Verification> {
  if (request.mode === 'none') return { status: 'skipped', mode: 'none', checks: [] };
  const timeoutMs = request.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const baseEnv = sandboxEnv(callerEnvironment(), request.allowEnv ?? []).env;
  const { signal, onProgress } = request;
  const { cwd } = request;
  const checks: CheckResult[] = [];
  const pythonFiles = request.changedFiles.filter((f) => f.endsWith('.py') || f.endsWith('.pyi'));
  let python: string | undefined;
  const needPython = async () => (python ??= (await resolvePython(request.python, request.sessionDir)).path);
  throwIfCancelled(signal, 'before verification');
  if (pythonFiles.length > 0) {
    const present = await existing(cwd, pythonFiles);
    if (present.length > 0) checks.push(await checkPythonSyntax(await needPython(), cwd, present, timeoutMs, baseEnv));
  }
  throwIfCancelled(signal, 'during verification');
  // Each language the change touches brings its own tests: cargo test for a crate, the Python runner for the rest.
  const rust = request.changedFiles.some(isRust);
  const other = request.changedFiles.some((f) => !isRust(f));
  const configuredTests = Boolean(request.testCommand);
  if (rust) checks.push(...(await cargoChecks({ mode: request.mode, cwd, changedFiles: request.changedFiles, sessionDir: request.sessionDir, timeoutMs, baseEnv, testCommandConfigured: configuredTests, signal, onProgress })));
  throwIfCancelled(signal, 'during verification');
  const runTests = request.mode === 'tests' || request.mode === 'typecheck';
  if (runTests && request.testCommand) {
    checks.push(await runCheck({ name: 'tests', argv: await template(request.testCommand, cwd, needPython), cwd, timeoutMs, baseEnv, signal, onProgress }));
  } else if (runTests && other) {
    const detected = await detectPythonTests(cwd, async () => canImportPytest(await needPython(), cwd, baseEnv));
    if (detected && 'argv' in detected) checks.push(await runCheck({ name: 'tests', argv: await template(detected.argv, cwd, needPython), cwd, timeoutMs, baseEnv, signal, onProgress }));
    else if (detected) checks.push(skipped('tests', detected.skip));
    else if (!rust && (await exists(cwd, 'Cargo.toml'))) checks.push(await runCheck({ name: 'tests', argv: ['cargo', 'test', '--quiet'], cwd, timeoutMs, baseEnv, signal, onProgress }));
    else if (!rust) checks.push(skipped('tests', 'no test command configured or detected (pass --test-command)'));
  } else if (request.testsNeedTrust && request.mode === 'syntax' && (await hasTests(cwd, rust))) {
    checks.push(skipped('tests', UNTRUSTED_TESTS_REASON));
  }
  throwIfCancelled(signal, 'during verification');
  if (request.mode === 'typecheck' && (request.typecheckCommand || other)) {
    checks.push(
      request.typecheckCommand
        ? await runCheck({ name: 'typecheck', argv: await template(request.typecheckCommand, cwd, needPython), cwd, timeoutMs, baseEnv, signal, onProgress })
        : skipped('typecheck', 'no type checker configured (pass --typecheck-command)'),
    );
  }
  throwIfCancelled(request.signal, 'during verification');
  const failed = checks.some((c) => c.status === 'failed');
  return { status: failed ? 'failed' : 'passed', mode: request.mode, checks };
}

/** Whether the project has tests the untrusted default leaves out (detected without running anything). */
async function hasTests(cwd: string, rust: boolean): Promise<boolean> {
  if (rust || (await exists(cwd, 'Cargo.toml'))) return true;
  return (await detectPythonTests(cwd, async () => true)) !== undefined;
}

function skipped(name: string, reason: string): CheckResult {
  return { name, status: 'skipped', reason, duration_ms: 0 };
}

async function exists(cwd: string, file: string): Promise<boolean> {
  return access(path.join(cwd, file)).then(() => true, () => false);
}

async function existing(cwd: string, files: readonly string[]): Promise<string[]> {
  const present: string[] = [];
  for (const file of files) if (await exists(cwd, file)) present.push(file);
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
