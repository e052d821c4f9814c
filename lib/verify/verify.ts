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
import { auditCargoPaths } from './cargo-isolation.js';
import { confinementFor, type CheckConfinement } from './check-confinement.js';
import type { Isolation } from './isolation.js';
import { confineArgv } from './isolation.js';
import { auditPythonImports, importRoots, projectPackages, pythonPathEnv } from './python-isolation.js';
import { userRepositoryOf } from './user-checkout.js';
import { isScriptFile } from '../typescript/files.js';

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
  /** The session's workers dir: a Python worker this process runs there may compile the changed files (python.ts). */
  workersDir?: string;
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
  /** `cwd`'s HEAD is the change's base (a sandbox of verifyInSandbox): a type check failing there too is not the change's. */
  baseIsHead?: boolean;
  /** The git tree `cwd` holds, when the caller knows it: what a passing check says of it may be kept (cargo-lints.ts). */
  tree?: string;
}

export interface Verification {
  status: 'passed' | 'failed' | 'skipped';
  mode: VerifyMode;
  checks: CheckResult[];
  /** How the project's commands (tests, test command, type checker, cargo) were confined; absent when none ran. */
  isolation?: Isolation;
}

export const DEFAULT_CHECK_TIMEOUT_MS = 300_000;

export const UNTRUSTED_TESTS_REASON =
  "not run: the default verification runs the project's tests only in a repository you trusted (they run its code); run `tug trust`, or pass --verify tests";

const isRust = (file: string) => file.endsWith('.rs') || path.posix.basename(file) === 'Cargo.toml';

export async function verify(request: VerifyRequest): Promise<Verification> {
  if (request.mode === 'none') return { status: 'skipped', mode: 'none', checks: [] };
  const timeoutMs = request.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const callerEnv = callerEnvironment();
  const baseEnv = sandboxEnv(callerEnv, request.allowEnv ?? []).env;
  const { signal, onProgress } = request;
  const { cwd } = request;
  // The project's commands import the sandbox's code first, and run where they cannot write the user's repository.
  const user = await userRepositoryOf(cwd);
  const projectEnv = await pythonPathEnv(baseEnv, cwd, user);
  // Probed only when a project command runs: syntax checks (the untrusted default) need none of it.
  let confinement: Promise<CheckConfinement> | undefined;
  // The sandbox stays writable even where it sits inside a read-only dir (a TMPDIR in the repository).
  const confined = () => (confinement ??= confinementFor(user, callerEnv).then((c) => ({ ...c, mounts: { ...c.mounts, writable: [cwd] } })));
  const checks: CheckResult[] = [];
  const project = async (name: string, argv: string[]) => runCheck({ name, argv, cwd, timeoutMs, baseEnv: projectEnv, signal, onProgress, confine: await confined() });
  const pythonFiles = request.changedFiles.filter((f) => f.endsWith('.py') || f.endsWith('.pyi'));
  let python: string | undefined;
  const needPython = async () => (python ??= (await resolvePython(request.python, request.sessionDir)).path);
  throwIfCancelled(signal, 'before verification');
  if (pythonFiles.length > 0) {
    const present = await existing(cwd, pythonFiles);
    const workers = request.workersDir === undefined ? undefined : { workersDir: request.workersDir };
    if (present.length > 0) checks.push(await checkPythonSyntax(await needPython(), cwd, present, timeoutMs, baseEnv, workers));
  }
  // TypeScript/JavaScript: loaded only when the change touches a script (the compiler is big).
  const scriptFiles = request.changedFiles.filter(isScriptFile);
  const node = scriptFiles.length > 0
    ? (await import('./node-verify.js')).nodeVerifier({
        cwd, changedFiles: request.changedFiles, present: await existing(cwd, scriptFiles), user, baseEnv: projectEnv, baseIsHead: request.baseIsHead ?? false,
        run: async (name, argv, at, env) => runCheck({ name, argv, cwd: at, timeoutMs, baseEnv: projectEnv, env, signal, onProgress, confine: await confined() }),
      })
    : null;
  if (node) checks.push(await node.syntax());
  throwIfCancelled(signal, 'during verification');
  // Each language the change touches brings its own tests: cargo test for a crate, the Python runner for the rest.
  const rust = request.changedFiles.some(isRust);
  const other = request.changedFiles.some((f) => !isRust(f));
  const configuredTests = Boolean(request.testCommand);
  const runTests = request.mode === 'tests' || request.mode === 'typecheck';
  /** Before the project's tests run: every package of the project must import from the sandbox (else refuse). */
  const auditImports = async (check: string, required: boolean) => {
    if ((await projectPackages(cwd, await importRoots(cwd))).length === 0) return;
    const interpreter = required ? await needPython() : await needPython().catch(() => undefined);
    if (!interpreter) return;
    await auditPythonImports({ python: interpreter, sandbox: cwd, env: projectEnv, user, timeoutMs, confine: await confined(), check });
  };
  if (runTests && request.testCommand) await auditImports('test command', false);
  if (runTests && request.testCommand && (await exists(cwd, 'Cargo.toml'))) await auditCargoPaths(cwd, 'Cargo.toml', user, baseEnv);
  if (rust) {
    const confine = await confined();
    checks.push(...(await cargoChecks({ mode: request.mode, cwd, changedFiles: request.changedFiles, sessionDir: request.sessionDir, timeoutMs, baseEnv, testCommandConfigured: configuredTests, signal, onProgress, user, confine, tree: request.tree })));
  }
  throwIfCancelled(signal, 'during verification');
  if (runTests && request.testCommand) {
    await node?.prepare();
    checks.push(await project('tests', await template(request.testCommand, cwd, needPython)));
  } else if (runTests && node && (await node.hasTests())) {
    checks.push(...(await node.tests()));
  } else if (runTests && other) {
    const detected = await detectPythonTests(cwd, async () => canImportPytest(await needPython(), cwd, projectEnv, await confined()));
    if (detected && 'argv' in detected) {
      await auditImports('tests', true);
      checks.push(await project('tests', await template(detected.argv, cwd, needPython)));
    } else if (detected) checks.push(skipped('tests', detected.skip));
    else if (!rust && (await exists(cwd, 'Cargo.toml'))) {
      await auditCargoPaths(cwd, 'Cargo.toml', user, baseEnv);
      checks.push(await project('tests', ['cargo', 'test', '--quiet']));
    } else if (!rust) checks.push(skipped('tests', 'no test command configured or detected (pass --test-command)'));
  } else if (request.testsNeedTrust && request.mode === 'syntax' && ((await hasTests(cwd, rust)) || (await node?.hasTests()))) {
    checks.push(skipped('tests', UNTRUSTED_TESTS_REASON));
  }
  throwIfCancelled(signal, 'during verification');
  if (request.mode === 'typecheck' && !request.typecheckCommand && node) {
    checks.push(...(await node.typecheck()));
  } else if (request.mode === 'tests' && node) {
    // TypeScript's tests often run transpile-only (ts-jest, swc, tsx): green tests do not mean the project compiles,
    // and `tsc` is a TypeScript project's build step, as `cargo check` is a crate's. So `tests` includes it where a
    // tsconfig.json covers the change (a JavaScript package has no build to check).
    checks.push(...(await node.typecheck({ tsconfigOnly: true })));
  } else if (request.mode === 'typecheck' && (request.typecheckCommand || other)) {
    checks.push(
      request.typecheckCommand
        ? await project('typecheck', await template(request.typecheckCommand, cwd, needPython))
        : skipped('typecheck', 'no type checker configured (pass --typecheck-command)'),
    );
  }
  throwIfCancelled(request.signal, 'during verification');
  const failed = checks.some((c) => c.status === 'failed');
  const used = confinement ? await confinement : undefined;
  const isolation = used ? confineArgv(used.confinement, [], used.mounts).isolation : undefined;
  return { status: failed ? 'failed' : 'passed', mode: request.mode, checks, ...(isolation ? { isolation } : {}) };
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
