// Rust verification: cargo check / clippy / test in the sandbox, with a target dir kept in the session so reruns are incremental.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadExeca } from './execa.js';
import { sha256 } from '../core/hash.js';
import { runCheck, type CheckProgress, type CheckResult } from './run-check.js';
import { auditCargoPaths } from './cargo-isolation.js';
import { checkKey, lintsOf, rememberLints } from './cargo-lints.js';
import type { CheckConfinement } from './check-confinement.js';
import type { UserRepository } from './user-checkout.js';

export interface CargoRequest {
  mode: 'syntax' | 'tests' | 'typecheck';
  /** Sandbox root. */
  cwd: string;
  changedFiles: readonly string[];
  sessionDir?: string | undefined;
  timeoutMs: number;
  /** The allowlisted environment the checks run with. */
  baseEnv: Record<string, string>;
  /** A configured test command replaces `cargo test`. */
  testCommandConfigured: boolean;
  /** Kills cargo (and rustc under it) on a cancel; no later step starts. */
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: CheckProgress) => void) | undefined;
  /** The user's repository the sandbox borrows from: no manifest may point cargo there. */
  user?: UserRepository | null;
  confine?: CheckConfinement;
  /** The git tree the sandbox holds, when known: a passing `cargo check`'s lints are remembered for it (cargo-lints.ts). */
  tree?: string | undefined;
}

type CheckError = NonNullable<CheckResult['errors']>[number];

/** The Cargo workspaces the changed files belong to, as repo-relative manifest paths. */
export async function cargoManifests(cwd: string, changedFiles: readonly string[]): Promise<string[]> {
  const manifests = new Set<string>();
  for (const file of changedFiles) {
    if (!file.endsWith('.rs') && path.posix.basename(file) !== 'Cargo.toml') continue;
    let crate: string | null = null;
    let workspace: string | null = null;
    for (let dir = path.posix.dirname(file); ; dir = path.posix.dirname(dir)) {
      const manifest = dir === '.' ? 'Cargo.toml' : `${dir}/Cargo.toml`;
      const text = await readFile(path.join(cwd, manifest), 'utf8').catch(() => null);
      if (text !== null) {
        crate ??= manifest;
        if (/^\s*\[workspace\]/m.test(text)) workspace = manifest;
      }
      if (dir === '.') break;
    }
    const chosen = workspace ?? crate;
    if (chosen) manifests.add(chosen);
  }
  return [...manifests].sort();
}

export async function cargoChecks(request: CargoRequest): Promise<CheckResult[]> {
  const checks: CheckResult[] = [];
  const manifests = await cargoManifests(request.cwd, request.changedFiles);
  // Every workspace is audited before anything builds: a refusal runs nothing.
  for (const manifest of manifests) await auditCargoPaths(request.cwd, manifest, request.user ?? null, request.baseEnv);
  for (const manifest of manifests) {
    const env = {
      CARGO_TARGET_DIR: path.join(request.sessionDir ?? path.join(request.cwd, '..'), 'cargo-target', sha256(manifest).slice(0, 12)),
      CARGO_TERM_COLOR: 'never',
    };
    const check = cargoCheckArgs(path.join(request.cwd, manifest));
    const base = check.slice(1);
    const lint = request.mode === 'typecheck' && (await hasClippy());
    checks.push(await cargoStep(lint ? 'clippy' : 'cargo check', ['cargo', ...(lint ? ['clippy', ...base] : check)], request, env, manifest));
    if (request.signal?.aborted) break;
    if (request.mode !== 'syntax' && !request.testCommandConfigured && checks.at(-1)!.status === 'passed') {
      checks.push(await cargoStep('tests', ['cargo', 'test', ...base.filter((a) => a !== '--all-targets')], request, env, manifest));
    }
  }
  return checks;
}

/** `cargo check`'s arguments as verification and organize-imports both run it (the same flags, so one's answer serves the other). */
export function cargoCheckArgs(manifestPath: string): string[] {
  return ['check', '--manifest-path', manifestPath, '--workspace', '--all-targets', '--message-format=json'];
}

async function cargoStep(name: string, argv: string[], request: CargoRequest, env: Record<string, string>, manifest: string): Promise<CheckResult> {
  // A passing `cargo check` of a known tree: its unused-import lints are kept for organize-imports on that tree.
  const remember = name === 'cargo check' && request.tree !== undefined && request.confine !== undefined;
  let stdout = '';
  // The target dir sits in the session dir, inside the user's (read-only) git dir by default: cargo must write it.
  const result = await runCheck({
    name, argv, cwd: request.cwd, timeoutMs: request.timeoutMs, baseEnv: request.baseEnv, env, signal: request.signal, onProgress: request.onProgress,
    confine: request.confine, writable: [env['CARGO_TARGET_DIR']!], ...(remember ? { stdout: (text: string) => void (stdout = text) } : {}),
  });
  if (remember && result.status === 'passed') await rememberCheck(request, manifest, argv.slice(1), stdout);
  const parsed = parseCargoOutput(result.output ?? '', request.cwd, path.posix.dirname(manifest));
  const command = argv.map((a) => (a.startsWith(request.cwd) ? path.relative(request.cwd, a) || '.' : a));
  return { ...result, command, output: parsed.text, ...(parsed.errors.length > 0 ? { errors: parsed.errors } : {}) };
}

/**
 * `--message-format=json` puts one JSON object per compiler message on stdout; everything else (cargo's progress,
 * test output) is plain text. Errors become structured entries, the rendered diagnostics become the readable output.
 */
export function parseCargoOutput(output: string, cwd: string, crateDir: string): { text: string; errors: CheckError[] } {
  const errors: CheckError[] = [];
  const lines: string[] = [];
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) {
      if (line.trim() !== '') lines.push(line);
      continue;
    }
    let message: { reason?: string; message?: { level: string; message: string; rendered?: string; spans: Array<{ file_name: string; line_start: number; column_start: number; is_primary: boolean }> } };
    try {
      message = JSON.parse(line);
    } catch {
      lines.push(line);
      continue;
    }
    if (message.reason !== 'compiler-message' || !message.message) continue;
    const diagnostic = message.message;
    if (diagnostic.rendered && diagnostic.level !== 'note') lines.push(diagnostic.rendered.trimEnd());
    if (diagnostic.level !== 'error') continue;
    const span = diagnostic.spans.find((s) => s.is_primary) ?? diagnostic.spans[0];
    const file = span ? relativeFile(span.file_name, cwd, crateDir) : '';
    errors.push({ file, line: span?.line_start ?? null, col: span?.column_start ?? null, message: diagnostic.message });
  }
  return { text: lines.join('\n'), errors };
}

function relativeFile(file: string, cwd: string, crateDir: string): string {
  const absolute = path.isAbsolute(file) ? file : path.join(cwd, crateDir, file);
  const rel = path.relative(cwd, absolute);
  return rel.startsWith('..') ? file : rel.split(path.sep).join('/');
}

async function rememberCheck(request: CargoRequest, manifest: string, cargoArgs: string[], stdout: string): Promise<void> {
  const env = { ...request.baseEnv, CARGO_TERM_COLOR: 'never' };
  const confine = request.confine!;
  const key = await checkKey({ tree: request.tree!, root: request.cwd, manifest, cwd: request.cwd, argv: cargoArgs, env, confinement: confine.confinement, network: confine.mounts.network ?? false });
  // Unreadable output (cut, or interleaved) is not kept: organize-imports then runs its own check.
  const read = await lintsOf(stdout, request.cwd, path.join(request.cwd, path.posix.dirname(manifest))).catch(() => null);
  if (read?.keep) rememberLints(key, read.lints);
}

let clippy: Promise<boolean> | undefined;

function hasClippy(): Promise<boolean> {
  clippy ??= loadExeca()
    .then((execa) => execa('cargo', ['clippy', '--version'], { reject: false, stdin: 'ignore', timeout: 20_000 }))
    .then((r) => r.exitCode === 0);
  return clippy;
}
