// Which repositories the user trusted, kept in the user's config dir (never in a repository, which could trust itself).
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { callerEnvironment } from '../verify/sandbox-env.js';

/** `$XDG_CONFIG_HOME/tug`, else `~/.config/tug`: read from the caller's environment, so the daemon honours the client's. */
export function userConfigDir(env: NodeJS.ProcessEnv = callerEnvironment()): string {
  const xdg = env['XDG_CONFIG_HOME'];
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'tug');
  return path.join(env['HOME'] || os.homedir(), '.config', 'tug');
}

export function trustFile(env?: NodeJS.ProcessEnv): string {
  return path.join(userConfigDir(env), 'trust.json');
}

interface TrustStore {
  version: 1;
  /** Repository directory → the hash of the settings the user saw when trusting it. */
  repositories: Record<string, { settings_hash: string }>;
}

async function readStore(file: string): Promise<TrustStore> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<TrustStore>;
    if (parsed && typeof parsed.repositories === 'object' && parsed.repositories !== null) return { version: 1, repositories: parsed.repositories };
  } catch {
    // Missing or unreadable: nothing is trusted, which is the safe answer.
  }
  return { version: 1, repositories: {} };
}

export type TrustState = 'trusted' | 'changed' | 'untrusted';

/** `trusted` only when the record's hash equals the settings as they are now; `changed` when they moved on since. */
export async function trustState(directory: string, settingsHash: string): Promise<TrustState> {
  const record = (await readStore(trustFile())).repositories[directory];
  if (!record) return 'untrusted';
  return record.settings_hash === settingsHash ? 'trusted' : 'changed';
}

/** Records (hash) or removes (null) the trust of `directory`; the file is replaced whole, private to the user. */
export async function setTrust(directory: string, settingsHash: string | null): Promise<string> {
  const file = trustFile();
  const store = await readStore(file);
  if (settingsHash === null) delete store.repositories[directory];
  else store.repositories[directory] = { settings_hash: settingsHash };
  const sorted = Object.fromEntries(Object.entries(store.repositories).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ version: 1, repositories: sorted }, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
  return file;
}
