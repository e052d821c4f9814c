// Project configuration: flags > TUG_* environment > tug.toml > pyproject.toml [tool.tug] > user config > defaults, validated key by key.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { TugError } from '../../core/errors.js';
import type { WarningJSON } from '../../core/schemas.js';
import { gatedSettings, settingsHash, withoutGated, type GatedSetting } from '../../trust/settings.js';
import { trustState, userConfigDir, type TrustState } from '../../trust/store.js';
import { USER_ONLY_KEYS } from '../../trust/user-only.js';
import { callerEnvironment } from '../../verify/sandbox-env.js';
import { didYouMean } from '../../core/did-you-mean.js';
import { globProblem, globToRegExp } from '../../core/glob.js';

const Argv = z.array(z.string()).min(1);

/** A glob in include/exclude that does not compile (an unclosed `[`, a reversed range): named before any file is read. */
const Globs = z.array(
  z
    .string()
    .min(1)
    .superRefine((glob, ctx) => {
      const problem = globProblem(glob);
      if (problem) ctx.addIssue({ code: 'custom', message: `invalid glob ${JSON.stringify(glob)}: ${problem}` });
    }),
);

/** What may be configured; every key optional. Unknown keys are dropped with a warning naming the closest one (dropUnknown). */
const ConfigSchema = z
  .object({
    verify: z.enum(['none', 'syntax', 'tests', 'typecheck']),
    test_command: Argv,
    typecheck_command: Argv,
    test_timeout: z.number().int().positive().max(3600),
    python: z.object({ python_path: z.string().min(1) }).partial().strict(),
    run_command: z.object({ allow_env: Globs }).partial().strict(),
    rust: z.object({ rust_analyzer_path: z.string().min(1) }).partial().strict(),
    session: z.object({ session_dir: z.string().min(1) }).partial().strict(),
    include: Globs,
    exclude: Globs,
    safety_mode: z.enum(['strict', 'normal', 'aggressive']),
  })
  .partial()
  .strict();

export type TugConfig = z.infer<typeof ConfigSchema>;

export interface ResolvedConfig {
  verify: 'none' | 'syntax' | 'tests' | 'typecheck';
  test_command?: string[];
  typecheck_command?: string[];
  timeout?: number;
  python_path?: string;
  /** The rust-analyzer binary [rust] rust_analyzer_path names (a flag and $TUG_RA_PATH outrank it). */
  rust_analyzer_path?: string;
  /** The session directory [session] session_dir asks for, already made safe (see sessionDirOf). */
  session_dir?: string;
  /** Secret-looking variables run_command may pass on anyway (names or globs). */
  allow_env: string[];
  /** Globs (relative to the workspace) restricting which files analysis considers; empty include = every file. */
  include: string[];
  exclude: string[];
  /**
   * strict (default): an ambiguous position is an error, strings and comments are renamed only when asked. normal: an
   * ambiguous position takes the name before it, with a warning. aggressive: as normal, and strings and comments equal
   * to the old name are renamed too (each reported) unless a flag says otherwise.
   */
  safety_mode: 'strict' | 'normal' | 'aggressive';
  /** Where each value came from, for error messages and `session status`. */
  sources: Record<string, string>;
  /** Whether the user trusted this repository (with its gated settings as they are now): `tug trust`. */
  trust: TrustState;
  /**
   * Gated settings of the repository's files that were ignored because it is not trusted, and keys the files had that
   * tug does not know (each named with the closest known key): one warning each.
   */
  warnings: WarningJSON[];
}

export const DEFAULT_VERIFY = 'syntax';

async function readToml(file: string): Promise<Record<string, unknown> | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  const { parse } = await import('smol-toml');
  try {
    return parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new TugError('InvalidConfig', `${path.basename(file)} is not valid TOML: ${(error as Error).message.split('\n')[0]}`, {
      details: { argument: path.basename(file), source: path.basename(file), reason: 'invalid TOML' },
    });
  }
}

/** The keys a table may hold: the schema's own, and for a nested table (python, run_command, …) its schema's. */
function knownKeys(schema: z.ZodType): string[] | null {
  const inner = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
  return inner instanceof z.ZodObject ? Object.keys(inner.shape as Record<string, unknown>) : null;
}

/** Drops keys tug does not know, with a warning naming the closest known one: a typo should not stop every command. */
function dropUnknown(value: unknown, source: string, warnings: WarningJSON[]): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const shape = ConfigSchema.shape as Record<string, z.ZodType>;
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
    const field = shape[key];
    if (!field) {
      warnings.push(unknownKey(source, key, Object.keys(shape)));
      continue;
    }
    const nested = knownKeys(field);
    if (nested && typeof entry === 'object' && entry !== null && !Array.isArray(entry)) {
      out[key] = Object.fromEntries(
        Object.entries(entry as Record<string, unknown>).filter(([k]) => nested.includes(k) || (warnings.push(unknownKey(source, `${key}.${k}`, nested.map((n) => `${key}.${n}`))), false)),
      );
    } else out[key] = entry;
  }
  return out;
}

function unknownKey(source: string, key: string, known: string[]): WarningJSON {
  const guess = didYouMean(key, known);
  return {
    code: 'UnknownConfigKey',
    message: `${source}: unknown key ${key}${guess ? `; did you mean ${guess}?` : ''} (ignored)`,
    details: { source, key, ...(guess ? { suggestion: guess } : {}), known: [...known].sort() },
  };
}

function validate(value: unknown, source: string): TugConfig {
  const result = ConfigSchema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({ key: i.path.map(String).join('.') || (i.code === 'unrecognized_keys' ? i.keys.join(', ') : ''), message: i.message }));
  const summary = issues.map((i) => `${source}${i.key ? ` ${i.key}` : ''}: ${i.message}`).join('; ');
  const key = issues[0]?.key.split('.')[0] ?? '';
  throw new TugError('InvalidConfig', `invalid configuration: ${summary}`, { details: { argument: source, source, key, reason: summary, issues } });
}

function fromEnv(env: NodeJS.ProcessEnv): TugConfig {
  const raw: Record<string, unknown> = {};
  const json = (name: string) => {
    try {
      return JSON.parse(env[name]!);
    } catch {
      return env[name];
    }
  };
  if (env['TUG_VERIFY']) raw['verify'] = env['TUG_VERIFY'];
  if (env['TUG_TEST_COMMAND']) raw['test_command'] = json('TUG_TEST_COMMAND');
  if (env['TUG_TYPECHECK_COMMAND']) raw['typecheck_command'] = json('TUG_TYPECHECK_COMMAND');
  if (env['TUG_TEST_TIMEOUT']) raw['test_timeout'] = Number(env['TUG_TEST_TIMEOUT']);
  const globs = (name: string) => env[name]!.split(',').map((g) => g.trim()).filter(Boolean);
  if (env['TUG_SAFETY']) raw['safety_mode'] = env['TUG_SAFETY'];
  if (env['TUG_INCLUDE']) raw['include'] = globs('TUG_INCLUDE');
  if (env['TUG_EXCLUDE']) raw['exclude'] = globs('TUG_EXCLUDE');
  return validate(raw, 'environment (TUG_*)');
}

/** Sources that the repository controls: their gated settings need `tug trust`. */
export const REPOSITORY_SOURCES = ['pyproject.toml [tool.tug]', 'tug.toml'];

/** `config.toml` in the user's config dir: settings the user chose, so they always apply. */
export function userConfigFile(): string {
  return path.join(userConfigDir(), 'config.toml');
}

/** The repository's two config files; keys tug does not know are dropped with a warning in `warnings`. */
async function repositoryLayers(root: string, warnings: WarningJSON[] = []): Promise<Array<[string, TugConfig]>> {
  const pyproject = await readToml(path.join(root, 'pyproject.toml'));
  const tool = (pyproject?.['tool'] as Record<string, unknown> | undefined)?.['tug'];
  return [
    ['pyproject.toml [tool.tug]', validate(dropUnknown(withoutUserOnly(tool, 'pyproject.toml [tool.tug]', warnings), 'pyproject.toml [tool.tug]', warnings), 'pyproject.toml [tool.tug]')],
    ['tug.toml', validate(dropUnknown(withoutUserOnly(await readToml(path.join(root, 'tug.toml')), 'tug.toml', warnings), 'tug.toml', warnings), 'tug.toml')],
  ];
}

/** The repository's settings that need trust, and their hash: what `tug trust` shows and records. */
export async function repositorySettings(root: string): Promise<{ directory: string; settings: GatedSetting[]; hash: string }> {
  const settings = gatedSettings(await repositoryLayers(root));
  return { directory: path.resolve(root), settings, hash: settingsHash(settings) };
}

function untrustedWarning(setting: GatedSetting, state: TrustState): WarningJSON {
  const why = state === 'changed' ? 'changed since you trusted this repository and is ignored' : 'is ignored: this repository is not trusted';
  return {
    code: 'UntrustedSetting',
    message: `${setting.source} ${setting.key} ${why}; check it, then run \`tug trust\` to let it take effect`,
    suggestion: 'tug trust',
    details: { source: setting.source, key: setting.key, trust: state },
  };
}

/** Merges the layers for the repository at `root`; `flags` are what the caller passed explicitly. */
export async function resolveConfig(
  root: string,
  flags: {
    verify?: string | undefined;
    test_command?: string[] | undefined;
    typecheck_command?: string[] | undefined;
    timeout?: number | undefined;
    python?: string | undefined;
    include?: string[] | undefined;
    exclude?: string[] | undefined;
    safety?: string | undefined;
  },
): Promise<ResolvedConfig> {
  const unknownKeys: WarningJSON[] = [];
  const repository = await repositoryLayers(root, unknownKeys);
  const gated = gatedSettings(repository);
  const trust = await trustState(path.resolve(root), settingsHash(gated));
  // An untrusted repository keeps its harmless settings; those that would run a program or widen the environment wait for `tug trust`.
  const warnings = [...unknownKeys, ...(trust === 'trusted' ? [] : gated.map((setting) => untrustedWarning(setting, trust)))];
  const userFile = userConfigFile();
  const layers: Array<[string, TugConfig]> = [
    ['user config', validate(dropUnknown(withoutDaemonTable(await readToml(userFile)), `user config ${userFile}`, warnings), `user config ${userFile}`)],
    ...repository.map(([source, layer]): [string, TugConfig] => [source, trust === 'trusted' ? layer : withoutGated(layer)]),
    ['environment', fromEnv(callerEnvironment())],
  ];
  const out: ResolvedConfig = {
    verify: DEFAULT_VERIFY,
    allow_env: [],
    include: [],
    exclude: [],
    safety_mode: 'strict',
    sources: { verify: 'default', safety_mode: 'default' },
    trust,
    warnings,
  };
  for (const [source, layer] of layers) {
    if (layer.verify) (out.verify = layer.verify), (out.sources['verify'] = source);
    if (layer.test_command) (out.test_command = layer.test_command), (out.sources['test_command'] = source);
    if (layer.typecheck_command) (out.typecheck_command = layer.typecheck_command), (out.sources['typecheck_command'] = source);
    if (layer.test_timeout) (out.timeout = layer.test_timeout), (out.sources['timeout'] = source);
    if (layer.run_command?.allow_env) (out.allow_env = layer.run_command.allow_env), (out.sources['allow_env'] = source);
    if (layer.python?.python_path) (out.python_path = path.resolve(root, layer.python.python_path)), (out.sources['python_path'] = source);
    if (layer.rust?.rust_analyzer_path) (out.rust_analyzer_path = path.resolve(root, layer.rust.rust_analyzer_path)), (out.sources['rust_analyzer_path'] = source);
    if (layer.session?.session_dir) (out.session_dir = layer.session.session_dir), (out.sources['session_dir'] = source);
    if (layer.include) (out.include = layer.include), (out.sources['include'] = source);
    if (layer.exclude) (out.exclude = layer.exclude), (out.sources['exclude'] = source);
    if (layer.safety_mode) (out.safety_mode = layer.safety_mode), (out.sources['safety_mode'] = source);
  }
  if (flags.verify) (out.verify = flags.verify as ResolvedConfig['verify']), (out.sources['verify'] = 'flag');
  if (flags.test_command) (out.test_command = flags.test_command), (out.sources['test_command'] = 'flag');
  if (flags.typecheck_command) (out.typecheck_command = flags.typecheck_command), (out.sources['typecheck_command'] = 'flag');
  if (flags.timeout) (out.timeout = flags.timeout), (out.sources['timeout'] = 'flag');
  if (flags.python) (out.python_path = flags.python), (out.sources['python_path'] = 'flag');
  // A malformed glob on the command line is the caller's InvalidArgument (GlobError), before anything is matched.
  for (const glob of [...(flags.include ?? []), ...(flags.exclude ?? [])]) globToRegExp(glob.replace(/^\.\//, ''));
  if (flags.include?.length) (out.include = flags.include), (out.sources['include'] = 'flag');
  if (flags.exclude?.length) (out.exclude = flags.exclude), (out.sources['exclude'] = 'flag');
  if (flags.safety) (out.safety_mode = flags.safety as ResolvedConfig['safety_mode']), (out.sources['safety_mode'] = 'flag');
  // The default runs the project's tests only where the user trusted the repository: tests run its code.
  if (out.sources['verify'] === 'default' && trust === 'trusted') (out.verify = 'tests'), (out.sources['verify'] = 'default (trusted repository)');
  return out;
}

/**
 * The interpreter to pass as "explicit": a flag, else (unless TUG_PYTHON is set, which outranks files) the configured one.
 * Analysis (read-only operations and the planning of a change) never runs an interpreter a repository file names, trusted
 * or not: only verification does, and only in a trusted repository.
 */
export function configuredPython(config: ResolvedConfig, use: 'analysis' | 'verification' = 'analysis'): string | undefined {
  if (config.sources['python_path'] === 'flag') return config.python_path;
  if (use === 'analysis' && REPOSITORY_SOURCES.includes(config.sources['python_path'] ?? '')) return undefined;
  return callerEnvironment()['TUG_PYTHON'] ? undefined : config.python_path;
}

/**
 * The rust-analyzer to pass as explicit: the caller's, else (unless $TUG_RA_PATH is set, which outranks files) the
 * configured one. A repository's choice reaches here only when the user trusted it (it runs a program).
 */
export function configuredRustAnalyzer(config: ResolvedConfig, flag: string | undefined): string | undefined {
  if (flag) return flag;
  return callerEnvironment()['TUG_RA_PATH'] ? undefined : config.rust_analyzer_path;
}

/** What verification takes from the configuration (the interpreter a trusted repository names included). */
export function verifySettings(config: ResolvedConfig) {
  return {
    mode: config.verify,
    python: configuredPython(config, 'verification'),
    testCommand: config.test_command,
    typecheckCommand: config.typecheck_command,
    allowEnv: config.allow_env,
    timeoutMs: config.timeout === undefined ? undefined : config.timeout * 1000,
    testsNeedTrust: config.sources['verify'] === 'default',
  };
}

/**
 * Resolves the configuration of the repository: its root's files, whatever directory tug was started in, so `cd pkg`
 * neither drops the repository's include/exclude and test command nor picks up other settings.
 */
export async function configFor(
  repo: { root: string },
  flags: Parameters<typeof resolveConfig>[1],
  warnings?: WarningJSON[],
): Promise<ResolvedConfig> {
  const config = await resolveConfig(repo.root, flags);
  warnings?.push(...config.warnings);
  return config;
}

/** The user config's `[daemon]` table is the daemon's own (lib/daemon/settings.ts), not a project setting; nor are USER_ONLY_KEYS (lib/trust/user-only.ts). */
function withoutDaemonTable(table: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!table) return table;
  const { daemon: _daemon, ...rest } = table;
  for (const key of USER_ONLY_KEYS) delete rest[key];
  return rest;
}

/** A repository's file naming a user-only key: ignored, trusted or not, with a warning saying where it belongs. */
function withoutUserOnly(table: unknown, source: string, warnings: WarningJSON[]): unknown {
  if (typeof table !== 'object' || table === null || Array.isArray(table)) return table;
  const rest = { ...(table as Record<string, unknown>) };
  for (const key of USER_ONLY_KEYS) {
    if (!(key in rest)) continue;
    delete rest[key];
    warnings.push({
      code: 'UntrustedSetting',
      message: `${source} ${key} is ignored: only your own config (${path.join(userConfigDir(), 'config.toml')}) or TUG_VERIFY_NETWORK=1 can open the network, never a repository`,
      details: { source, key, trust: 'user config only' },
    });
  }
  return rest;
}
