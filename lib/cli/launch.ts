// What bin/tug and bin/git-tug run (bundled as dist/lib/cli-bundle/launch.cjs): the user's daemon when one serves the command, else the CLI in this process, bundled and code-cached when the build made the bundle.
import { autoStartDaemon, autoStartWanted } from '../daemon/autostart.js';
import { tryDaemon } from '../daemon/client.js';
import { loadBundledCli, type BundledCli } from './bundle-loader.js';
import { processIO, type AnalysisTarget, type CliIO } from './io.js';
import { isLeanSnapshot, leanSnapshot } from './lean-snapshot.js';
import { mark } from '../core/timing.js';
import { discardEarlyWorker, startEarlyWorker } from '../python/early-worker.js';
import { WORKER_SCRIPT } from '../python/worker.js';
import { setWasmFlags } from '../python/ruff-wasm.js';

/**
 * `daemonTried`: bin/tug.cjs has already asked the daemon (its client bundle), which did not take the command. `cli`:
 * the CLI already loaded (a start from the startup snapshot, lib/cli/startup-snapshot.ts).
 */
export async function launch(argv: readonly string[], options: { daemonTried?: boolean; cli?: BundledCli } = {}): Promise<number> {
  mark('launched');
  setWasmFlags();
  const forwarded = options.daemonTried ? null : await tryDaemon(argv);
  if (forwarded !== null) return forwarded;
  let target: AnalysisTarget | undefined;
  const io: CliIO = { ...processIO(), analysing: (t) => (target = t) };
  let code: number;
  try {
    await startEarlyWorker(argv, WORKER_SCRIPT);
    code = await runHere(argv, io, options.cli);
  } finally {
    discardEarlyWorker();
  }
  mark('ran');
  if (autoStartWanted(argv, code, process.cwd(), process.env)) autoStartDaemon(process.cwd(), target, io.stderrIsTTY, io.err);
  return code;
}

async function runHere(argv: readonly string[], io: CliIO, loaded: BundledCli | undefined): Promise<number> {
  if (isLeanSnapshot(argv, io)) {
    const json = await leanSnapshot(io);
    if (json !== null) {
      io.out(json);
      return 0;
    }
  }
  const bundled = loaded ?? loadBundledCli(argv);
  mark('CLI loaded');
  if (!bundled) {
    // By URL, so bundling this file (scripts/bundle-cli.mjs) does not pull the whole CLI in.
    const plain = (await import(new URL('../cli/main.js', import.meta.url).href)) as { main: BundledCli['main'] };
    return plain.main(argv, io);
  }
  const code = await bundled.main(argv, io);
  bundled.saveCodeCache();
  return code;
}
