// `tug daemon start`: a detached `tug daemon run` that outlives the command that started it, waited for until it answers.
import { spawnDaemon } from './autostart.js';
import { controlDaemon } from './server.js';

export async function launchDaemon(commonDir: string, workspace: string, idleSeconds: number, waitMs = 10_000): Promise<Record<string, unknown> | null> {
  spawnDaemon(['--workspace', workspace, '--idle-seconds', String(idleSeconds)]);
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    const status = await controlDaemon(commonDir, 'status');
    if (status) return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return null;
}
