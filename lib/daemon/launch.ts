// Starting a daemon in the background: a detached `tug daemon run` that outlives the command that started it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { controlDaemon } from './server.js';

const TUG_BIN = fileURLToPath(new URL('../../../bin/tug', import.meta.url));

export async function launchDaemon(commonDir: string, workspace: string, idleSeconds: number, waitMs = 10_000): Promise<Record<string, unknown> | null> {
  const args = [TUG_BIN, 'daemon', 'run', '--workspace', workspace, '--idle-seconds', String(idleSeconds)];
  const child = spawn(process.execPath, args, { detached: true, stdio: 'ignore', env: process.env });
  child.unref();
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    const status = await controlDaemon(commonDir, 'status');
    if (status) return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return null;
}
