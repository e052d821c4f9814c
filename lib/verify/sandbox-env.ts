// The environment commands get in a sandbox: an allowlist of the caller's variables (never the daemon's), plus what the user allows.
import { AsyncLocalStorage } from 'node:async_hooks';
import { globToRegExp } from '../core/glob.js';

/** What a build or test needs to find its tools, locale and home; everything else is dropped unless allowed. */
const ALLOWED_NAMES = ['PATH', 'HOME', 'LANG', 'LANGUAGE', 'TERM', 'TMPDIR', 'USER', 'LOGNAME', 'SHELL', 'TZ', 'VIRTUAL_ENV', 'CONDA_PREFIX', 'RUSTFLAGS', 'RUSTDOCFLAGS'];
const ALLOWED_PREFIXES = ['LC_', 'PYTHON', 'CARGO_', 'RUSTUP_'];

/**
 * Names that usually hold credentials. Checked even inside the allowed families (CARGO_REGISTRY_TOKEN is a
 * CARGO_ variable and a secret); only an explicit allow_env entry lets one through.
 */
const SECRET_NAMES = [/_TOKEN$/, /_KEY$/, /_SECRET$/, /_PASSWORD$/, /TOKEN/, /SECRET/, /PASSW/, /CREDENTIAL/, /AUTH/, /PWD/, /APIKEY/, /PASSPHRASE/, /COOKIE/, /^AWS_/, /^OPENAI_/, /^ANTHROPIC_/, /^GOOGLE_/];

export function isSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  return SECRET_NAMES.some((re) => re.test(upper));
}

function allowedByDefault(name: string): boolean {
  return ALLOWED_NAMES.includes(name) || ALLOWED_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/**
 * `allow` holds names or globs (`AWS_PROFILE`, `GOOGLE_*`) from the user's config (or a trusted repository's
 * `allow_env`). Returns the environment and the names left out, so callers can say what they dropped.
 */
export function sandboxEnv(env: NodeJS.ProcessEnv, allow: readonly string[]): { env: Record<string, string>; dropped: string[] } {
  const allowed = allow.map((a) => globToRegExp(a));
  const out: Record<string, string> = {};
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const explicit = allowed.some((re) => re.test(name));
    if (explicit || (allowedByDefault(name) && !isSecretName(name))) out[name] = value;
    else dropped.push(name);
  }
  out['TUG_SANDBOX'] = '1';
  return { env: out, dropped: dropped.sort() };
}

const caller = new AsyncLocalStorage<NodeJS.ProcessEnv>();

/**
 * Runs `work` on behalf of a caller whose environment differs from this process's: the daemon serves each request
 * with the environment its client sent, so a command it runs sees the client's variables, not the daemon's.
 */
export function withCallerEnvironment<R>(env: NodeJS.ProcessEnv, work: () => R): R {
  return caller.run(env, work);
}

/** The environment of whoever asked for the current operation: the client's under the daemon, else this process's. */
export function callerEnvironment(): NodeJS.ProcessEnv {
  return caller.getStore() ?? process.env;
}
