// `tug daemon start`: a detached `tug daemon run` that outlives the command that started it, waited for until it answers.
import { spawnDaemon } from './autostart.js';
import { controlDaemon } from './client.js';

export async function launchDaemon(args: readonly string[], waitMs = 10_000): Promise<Record<string, unknown> | null> {
  spawnDaemon(args);
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    const status = await controlDaemon('status');
    if (status) return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return null;
}
