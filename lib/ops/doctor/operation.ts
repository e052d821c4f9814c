// `tug doctor`: what tug needs on this machine and in this repository, what is missing, and the command that fixes it.
import { access, constants, rm, writeFile } from 'node:fs/promises';
import { makeSessionDir } from '../../session/files.js';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { SCHEMA_VERSION } from '../../core/schemas.js';
import { defineOperation } from '../operation.js';

const Check = z.object({
  name: z.string(),
  status: z.enum(['ok', 'missing', 'info']).describe('missing: tug cannot do what `needed_for` names until `fix` is done.'),
  found: z.string().nullable().describe('What tug found (a version, a path), or null.'),
  needed_for: z.string(),
  fix: z.string().nullable().describe('The command or step that fixes a missing check.'),
});
type CheckJSON = z.infer<typeof Check>;

const DoctorResponse = z.object({
  status: z.literal('ok'),
  schema_version: z.literal(SCHEMA_VERSION),
  checks: z.array(Check),
  missing: z.array(z.string()).describe('Names of the checks whose status is missing, in check order.'),
});

const MIN_NODE = [20, 19];

export const doctorOperation = defineOperation({
  name: 'doctor',
  tool: 'tug_doctor',
  summary: 'Check what tug needs (git, Python, rust-analyzer, cargo) and report problems.',
  description:
    'Check what tug needs: git, Node, Python (and which Python features: analysis with the standard library, pytest, LibCST), rust-analyzer, cargo and clippy, the TypeScript compiler (the project\'s own or tug\'s), the session dir and the daemon. Each check says what it is needed for and, when missing, the command that fixes it. Reports; never fails because something is missing.',
  input: z.object({
    workspace: z.string().optional().describe('Directory whose repository, session dir and daemon to check (default: the current directory).'),
    session_dir: z.string().optional().describe('Session directory to check instead of <git-common-dir>/tug.'),
    python: z.string().optional().describe('Interpreter to check instead of the one tug would resolve.'),
    rust_analyzer: z.string().optional().describe('rust-analyzer binary to check instead of the discovered one.'),
  }),
  output: DoctorResponse,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(input) {
    const workspace = input.workspace ?? process.cwd();
    const [repoChecks, rust] = await Promise.all([repositoryChecks(workspace, input.session_dir), rustChecks(input.rust_analyzer)]);
    const checks = [await gitCheck(), nodeCheck(), ...(await pythonChecks(repoChecks.sessionDir, input.python, workspace)), ...rust, await typescriptCheck(workspace), await bubblewrapCheck(), ...repoChecks.checks];
    return DoctorResponse.parse({ status: 'ok', schema_version: SCHEMA_VERSION, checks, missing: checks.filter((c) => c.status === 'missing').map((c) => c.name) });
  },
});

const check = (name: string, found: string | null, needed_for: string, fix: string, status: CheckJSON['status'] = found ? 'ok' : 'missing'): CheckJSON => ({
  name,
  status,
  found,
  needed_for,
  fix: status === 'missing' ? fix : null,
});

async function gitCheck(): Promise<CheckJSON> {
  const { git } = await import('../../git/run-git.js');
  const run = await git(['--version'], { cwd: os.tmpdir(), allowFailure: true, timeoutMs: 20_000 });
  return check('git', run.exitCode === 0 ? run.stdout.trim() : null, 'everything (snapshots, sandboxes, branches)', 'install git, e.g. `sudo apt-get install git`');
}

function nodeCheck(): CheckJSON {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const recent = major > MIN_NODE[0]! || (major === MIN_NODE[0] && minor >= MIN_NODE[1]!);
  return check('node', `v${process.versions.node}`, 'running tug (Node 20.19 or newer)', 'install Node.js 20.19 or newer (https://nodejs.org or your package manager)', recent ? 'ok' : 'missing');
}

/** The interpreter is asked isolated (lib/python/isolated.ts); `workspace` is only where a shim chooses it. */
async function pythonChecks(sessionDir: string | undefined, explicit: string | undefined, workspace: string): Promise<CheckJSON[]> {
  const { pythonInfo, pythonFeatures } = await import('../../python/toolchain.js');
  const info = await pythonInfo(sessionDir ?? path.join(os.tmpdir(), 'tug-doctor-no-session'), explicit, path.resolve(workspace));
  const features = info.interpreter ? await pythonFeatures(info.interpreter, path.resolve(workspace)) : { version: null, libcst: null, pytest: null };
  const { isSupportedVersion, MIN_PYTHON_TEXT } = await import('../../python/supported.js');
  const supported = isSupportedVersion(features.version);
  const python = info.found && features.version && supported ? `${info.interpreter} (Python ${features.version}, from ${info.source})` : null;
  const pythonFix = `install Python ${MIN_PYTHON_TEXT} or newer (\`sudo apt-get install python3\`), or pass --python PATH / set TUG_PYTHON`;
  return [
    check('python', python, `Python analysis, renames and syntax verification (Python ${MIN_PYTHON_TEXT}+; the standard library is enough)`, features.version && !supported ? `${info.interpreter} is Python ${features.version}: ${pythonFix}` : pythonFix),
    check('pytest', features.pytest, '`--verify tests` in Python projects without a test_command', `${info.interpreter ?? 'python3'} -m pip install pytest, or \`sudo apt-get install python3-pytest\``, python ? (features.pytest ? 'ok' : 'missing') : 'info'),
    check('libcst', features.libcst, 'nothing yet: optional, no current operation needs it', '', 'info'),
  ];
}

async function rustChecks(explicit: string | undefined): Promise<CheckJSON[]> {
  const { rustInfo } = await import('../../rust/toolchain.js');
  const info = await rustInfo(explicit);
  return [
    check('rust-analyzer', info.found ? `${info.rust_analyzer} (${info.version}, from ${info.source})` : null, 'Rust analysis and renames', 'tug toolchain rust setup (or pass --rust-analyzer PATH / set TUG_RA_PATH)'),
    check('cargo', info.cargo, 'verifying Rust changes (cargo check, cargo test)', 'install Rust: rustup (https://rustup.rs) or `sudo apt-get install cargo`'),
    check('clippy', info.clippy ? 'cargo clippy' : null, '`--verify typecheck` in Rust projects', 'rustup component add clippy, or `sudo apt-get install rust-clippy`'),
  ];
}

/** The compiler the TypeScript/JavaScript adapter uses: the project's own when installed, else the one tug ships. */
async function typescriptCheck(workspace: string): Promise<CheckJSON> {
  const { discoverRepo } = await import('../../git/repo.js');
  const repo = await discoverRepo(workspace).catch(() => null);
  const { typescriptInfo } = await import('../../typescript/toolchain.js');
  const info = typescriptInfo(repo?.root ?? null, workspace);
  const found = info.project
    ? `typescript ${info.project.version} of the project (${path.relative(repo!.root, info.project.dir) || '.'}); tug ships ${info.tug ?? '?'}`
    : info.tug ? `typescript ${info.tug}, shipped with tug (the project has none installed)` : null;
  return check('typescript', found, 'TypeScript/JavaScript renames, organize-imports and their verification (tsc)', 'reinstall tug (`npm ci`): its typescript dependency is missing');
}

/** The repository, its session dir (writable?) and its daemon; outside a repository only that fact. */
async function repositoryChecks(workspace: string, override: string | undefined): Promise<{ checks: CheckJSON[]; sessionDir?: string }> {
  const { discoverRepo } = await import('../../git/repo.js');
  const repo = await discoverRepo(workspace).catch(() => null);
  if (!repo) return { checks: [check('repository', null, 'every command but doctor, help and mcp', 'run tug inside a git working tree (or pass -C DIR)', 'info')] };
  const { sessionDirFor } = await import('../../session/session.js');
  const { configuredSessionDir } = await import('../workspace/session-dir.js');
  const sessionDir = sessionDirFor(repo, override ?? (process.env['TUG_SESSION_DIR'] ? undefined : await configuredSessionDir(repo, [])));
  const { controlDaemon } = await import('../../daemon/client.js');
  // A socket that is not the user's own is no daemon of theirs (controlDaemon refuses it): reported as not running.
  const [writable, daemon] = await Promise.all([canWrite(sessionDir), controlDaemon('status').catch(() => null)]);
  const status = daemon?.['status'] as { pid?: number } | undefined;
  return {
    sessionDir,
    checks: [
      check('repository', repo.root, 'every command but doctor, help and mcp', ''),
      check('session dir', writable ? sessionDir : null, 'locks, caches, undo points and logs', `make ${sessionDir} writable, or pass --session-dir DIR / set it in the config`),
      check('daemon', daemon ? `running, pid ${status?.pid ?? '?'}` : 'not running (the first analysis starts it; `tug daemon start`)', 'faster repeated commands (optional)', '', 'info'),
    ],
  };
}

/** bubblewrap confines run_command (read-only repository, no network); without it the fallback is weaker, and says so. */
async function bubblewrapCheck(): Promise<CheckJSON> {
  const { availableConfinement } = await import('../../verify/isolation.js');
  const confinement = await availableConfinement();
  const found = confinement === 'bwrap' ? 'bwrap (repository read-only, no network)' : null;
  const why = confinement === 'unshare' ? 'without it run_command falls back to unshare: the repository stays writable and the network on' : 'without it run_command is not confined: the repository stays writable and the network on';
  return check('bubblewrap', found, `confining run_command (${why})`, 'install bubblewrap, e.g. `sudo apt-get install bubblewrap` (it needs user namespaces, or root)');
}

/** Whether tug can create the session dir (if needed) and a file in it; the probe file is removed again. */
async function canWrite(dir: string): Promise<boolean> {
  try {
    // Not Node's recursive mkdir: it loops forever under /proc (makeSessionDir answers at once).
    await makeSessionDir(dir);
    await access(dir, constants.W_OK);
    const probe = path.join(dir, `.doctor-${process.pid}`);
    await writeFile(probe, '');
    await rm(probe, { force: true });
    return true;
  } catch {
    return false;
  }
}
