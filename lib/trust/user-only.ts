// Settings only the user's own config.toml can hold: a repository's files, trusted or not, never reach them.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { TugError } from '../core/errors.js';
import { userConfigDir } from './store.js';

/**
 * Keys read from the user config alone. `verify_network = true` lets confined project commands (verification's checks,
 * run_command) use the network, as `TUG_VERIFY_NETWORK=1` does: builds that fetch need it, and a repository that could
 * open it for itself could send out what its tests read.
 */
export const USER_ONLY_KEYS = ['verify_network'] as const;

/** Whether the user opened the network to confined commands: `TUG_VERIFY_NETWORK=1`, or `verify_network = true` in their config. */
export async function userAllowsNetwork(env: NodeJS.ProcessEnv): Promise<boolean> {
  if (env['TUG_VERIFY_NETWORK'] === '1') return true;
  const file = path.join(userConfigDir(env), 'config.toml');
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined || !/^\s*verify_network\s*=/m.test(text)) return false;
  const { parse } = await import('smol-toml');
  let value: unknown;
  try {
    value = (parse(text) as Record<string, unknown>)['verify_network'];
  } catch (error) {
    throw new TugError('InvalidConfig', `user config ${file} is not valid TOML: ${(error as Error).message.split('\n')[0]}`, {
      details: { argument: file, source: `user config ${file}`, key: 'verify_network', reason: 'invalid TOML' },
    });
  }
  if (value === undefined || typeof value === 'boolean') return value === true;
  throw new TugError('InvalidConfig', `user config ${file} verify_network: expected true or false`, {
    details: { argument: file, source: `user config ${file}`, key: 'verify_network', reason: 'expected a boolean' },
  });
}
