// --warm: the sweep's tug runs go through a daemon of the sweep's own (one per corpus, in a private XDG_RUNTIME_DIR
// under $SWEEP_DIR/run), the way a user's tug runs by default, so that rust-analyzer and the Python index stay warm
// from try to try (a Rust try drops from ~30 s to a few). Cold runs (TUG_NO_DAEMON=1) stay the default.
import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { spawnNiced, WORK } from './corpora.mjs';

/** The environment of a tug run for `corpus`: a private daemon when warm, none when cold. */
export function tugEnv(corpus, warm) {
  if (!warm) return { ...process.env, TUG_NO_DAEMON: '1', TUG_DAEMON_AUTOSTART: '0' };
  const dir = path.join(WORK, 'run', corpus);
  mkdirSync(dir, { recursive: true });
  chmodSync(path.join(WORK, 'run'), 0o700);
  chmodSync(dir, 0o700);
  // The daemon ends by itself ten minutes after the last try, should the sweep be killed before it stops it.
  const env = { ...process.env, XDG_RUNTIME_DIR: dir, TUG_DAEMON_IDLE_SECONDS: '600' };
  delete env.TUG_NO_DAEMON;
  delete env.TUG_DAEMON_AUTOSTART;
  return env;
}

/** Starts (`start`) or stops (`stop`) the corpus's daemon; a no-op when cold. */
export function daemon(tug, repo, corpus, warm, action) {
  if (!warm) return;
  const run = spawnNiced([tug, 'daemon', action, '--json'], { cwd: repo, encoding: 'utf8', env: tugEnv(corpus, true), timeout: 120_000 });
  if (run.status !== 0) process.stderr.write(`sweep: ${corpus}: tug daemon ${action} failed: ${run.stdout}${run.stderr}\n`);
}
