// Cases that ask about one fixture share one copy of it behind one private daemon: rust-analyzer starts cold once per
// fixture instead of once per case (~5 CPU s each), and the daemon prints exactly what a cold run prints. The cold path
// itself stays covered by the tests that call the CLI without a daemon.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { tug } from './cli.js';
import { fixtureRepo } from './rename-cases.js';
import type { TestRepo } from './repo.js';

export interface WarmFixture {
  repo: TestRepo;
  /** The daemon's private runtime dir (its socket). */
  runtime: string;
  /** The environment every call must use: a different value of a variable the daemon reads makes it hand the call back. */
  env: Record<string, string>;
}

interface Entry {
  fixture: Promise<WarmFixture>;
  /** Cases still to come; the daemon stops when the last one is done. */
  left: number;
  /** The end of the case before: cases on one copy run one after another. */
  queue: Promise<unknown>;
  stopped?: Promise<void>;
}

/**
 * A private daemon for one repository (its own runtime dir: never the user's daemon or another test's), started now;
 * calls with `env` are served by it, so rust-analyzer starts cold for the first and stays warm for the next. `stop()`
 * belongs in a `finally` or `test.after.always`.
 */
export async function privateDaemon(root: string): Promise<{ env: Record<string, string>; runtime: string; stop(): Promise<void> }> {
  const runtime = await mkdtemp(path.join(os.tmpdir(), 'tug-rt-'));
  const env = { XDG_RUNTIME_DIR: runtime };
  const stop = async () => {
    await tug(os.tmpdir(), ['daemon', 'stop'], { env });
    await rm(runtime, { recursive: true, force: true });
  };
  const started = await tug(root, ['daemon', 'start'], { env });
  if (started.exitCode !== 0 || !started.json?.daemon?.running) {
    await stop();
    throw new Error(`tug daemon start failed: ${started.stdout}${started.stderr}`);
  }
  return { env, runtime, stop };
}

/** Runs `body` with a private daemon serving `root`, and stops the daemon however `body` ends. */
export async function withDaemon<T>(root: string, body: (env: Record<string, string>) => Promise<T>): Promise<T> {
  const daemon = await privateDaemon(root);
  try {
    return await body(daemon.env);
  } finally {
    await daemon.stop();
  }
}

async function start(language: string, workspace: string): Promise<WarmFixture> {
  const repo = await fixtureRepo(language, workspace);
  try {
    const daemon = await privateDaemon(repo.root);
    return { repo, runtime: daemon.runtime, env: daemon.env };
  } catch (error) {
    await repo.cleanup();
    throw error;
  }
}

async function stop(fixture: WarmFixture): Promise<void> {
  await tug(os.tmpdir(), ['daemon', 'stop'], { env: fixture.env });
  await rm(fixture.runtime, { recursive: true, force: true });
  await fixture.repo.cleanup();
}

/**
 * Fixtures shared by the cases of one test file. `plan(language, workspace, n)` says how many cases will use a copy (so
 * its daemon stops after the last); `use` runs one case alone on the copy, then deletes the `tug/*` branches it made
 * and resets the working tree, so that every case starts from the committed fixture. Call `stopAll` in
 * `test.after.always`: it stops what a failed or skipped case left running.
 */
export function warmFixtures() {
  const entries = new Map<string, Entry>();
  const key = (language: string, workspace: string) => `${language}/${workspace}`;
  return {
    plan(language: string, workspace: string, cases: number): void {
      const k = key(language, workspace);
      const entry = entries.get(k);
      if (entry) entry.left += cases;
      else {
        const fixture = start(language, workspace);
        fixture.catch(() => undefined); // reported by the first case that uses it
        entries.set(k, { fixture, left: cases, queue: Promise.resolve() });
      }
    },
    async use<T>(language: string, workspace: string, body: (fixture: WarmFixture) => Promise<T>): Promise<T> {
      const entry = entries.get(key(language, workspace));
      if (!entry) throw new Error(`warmFixtures: ${language}/${workspace} was not planned`);
      const turn = entry.queue.then(async () => {
        const fixture = await entry.fixture;
        try {
          return await body(fixture);
        } finally {
          const branches = (await fixture.repo.git('for-each-ref', '--format=%(refname:short)', 'refs/heads/tug/')).split('\n').filter(Boolean);
          if (branches.length > 0) await fixture.repo.git('branch', '-D', ...branches);
          await fixture.repo.git('reset', '-q', '--hard');
          await fixture.repo.git('clean', '-qfd');
          if (--entry.left === 0) entry.stopped = stop(fixture);
        }
      });
      entry.queue = turn.catch(() => undefined);
      return turn;
    },
    async stopAll(): Promise<void> {
      await Promise.all(
        [...entries.values()].map(async (entry) => {
          await entry.queue;
          if (entry.stopped) return entry.stopped;
          const fixture = await entry.fixture.catch(() => null);
          if (fixture) await stop(fixture);
        }),
      );
    },
  };
}
