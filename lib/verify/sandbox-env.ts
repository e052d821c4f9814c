// The environment commands get in a sandbox: the caller's, minus anything that looks like a secret unless configuration allows it.
import { globToRegExp } from '../core/glob.js';

/** Names that usually hold credentials (issue 7): *_TOKEN, *_KEY, *_SECRET, *_PASSWORD and the cloud/AI vendors' prefixes. */
const SECRET_NAMES = [/_TOKEN$/, /_KEY$/, /_SECRET$/, /_PASSWORD$/, /^AWS_/, /^OPENAI_/, /^ANTHROPIC_/, /^GOOGLE_/];

/** Variables that would point git in the sandbox at the user's repository or index. */
const GIT_LOCATION = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_PREFIX', 'GIT_OBJECT_DIRECTORY', 'GIT_NAMESPACE'];

export function isSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  return SECRET_NAMES.some((re) => re.test(upper));
}

/** `allow` holds names or globs (`AWS_PROFILE`, `GOOGLE_*`) from tug.toml [run_command] allow_env. */
export function sandboxEnv(env: NodeJS.ProcessEnv, allow: readonly string[]): { env: Record<string, string>; dropped: string[] } {
  const allowed = allow.map((a) => globToRegExp(a));
  const out: Record<string, string> = {};
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || GIT_LOCATION.includes(name)) continue;
    if (isSecretName(name) && !allowed.some((re) => re.test(name))) {
      dropped.push(name);
      continue;
    }
    out[name] = value;
  }
  out['TUG_SANDBOX'] = '1';
  return { env: out, dropped: dropped.sort() };
}
