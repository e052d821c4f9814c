// The program behind the CLI's V8 startup snapshot (dist/lib/cli-bundle/startup.blob, made by scripts/bundle-cli.mjs):
// run once at build time with `node --build-snapshot`, it loads launch.cjs and main.cjs so that the blob holds their
// initialised modules; a command started from the blob (bin/tug's shell line) then skips reading, compiling and running
// ~3 MB of bundle, about 60 ms of CPU of every cold command (docs/PERFORMANCE.md, issue 34 "Tenth pass").
//
// What the bundles do while they load must not depend on the machine or the command, since it is frozen into the blob:
// scripts/bundle-cli.mjs refuses to write a blob when loading them read the environment, the working directory or the
// clock (tests/cli-startup-snapshot.test.ts holds that).
import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { BundledCli } from './bundle-loader.js';
import { mark } from '../core/timing.js';

type Require = (id: string) => unknown;
type Launch = (argv: readonly string[], options?: { daemonTried?: boolean; cli?: BundledCli }) => Promise<number>;

/** The bundles' folder at build time: this program runs there as startup.cjs. */
const DIR = path.dirname(realpathSync(process.argv[1]!));

/**
 * The bundles' `require` for what they load on use (the TypeScript compiler, the lean snapshot, ruff's WebAssembly):
 * while the blob is built, this program's own, which knows only Node's modules; once a command starts, a real one.
 */
let runtimeRequire: Require | null = null;
const bundleRequire: Require = (id) => (runtimeRequire ?? require)(id);

/** Runs one bundle's code as Node's CommonJS loader would, with `extra` parameters after the usual five. */
function load(file: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const full = path.join(DIR, file);
  const source = readFileSync(full, 'latin1');
  const names = ['exports', 'require', 'module', '__filename', '__dirname', ...Object.keys(extra)];
  const wrapper = vm.runInThisContext(`(function (${names.join(', ')}) {${source}\n})`, { filename: full }) as (...args: unknown[]) => void;
  const module = { exports: {} as Record<string, unknown> };
  wrapper(module.exports, bundleRequire, module, full, DIR, ...Object.values(extra));
  return module.exports;
}

/** `import()` for the review TUI (an ES module): code compiled into a blob cannot run `import()` itself. */
const importModule = (url: string): Promise<unknown> => (bundleRequire('./import.cjs') as (u: string) => Promise<unknown>)(url);

/**
 * Environment variables the bundles may read while they load: Node's colour switches (read when the first console is
 * made) and yargs's minimum Node version. Whatever else loading reads would be the build machine's value, frozen.
 */
const MAY_READ = new Set(['FORCE_COLOR', 'NO_COLOR', 'NODE_DISABLE_COLORS', 'TERM', 'YARGS_MIN_NODE_VERSION']);

/** Loads both bundles, noting every read of the environment, working directory, home, temporary folder or clock. */
function loadWatched(): { launch: Launch; main: BundledCli['main']; reads: string[] } {
  const reads = new Set<string>();
  const env = process.env;
  const restore: Array<() => void> = [() => (process.env = env)];
  process.env = new Proxy(env, {
    get: (target, key) => {
      if (typeof key === 'string' && !MAY_READ.has(key)) reads.add(`process.env.${key}`);
      return target[key as string];
    },
    has: (target, key) => {
      if (typeof key === 'string' && !MAY_READ.has(key)) reads.add(`process.env.${key}`);
      return key in target;
    },
    ownKeys: (target) => {
      reads.add('the whole of process.env');
      return Reflect.ownKeys(target);
    },
  });
  const watch = <T extends object>(owner: T, name: keyof T & string, label: string) => {
    const own = Object.getOwnPropertyDescriptor(owner, name);
    const original = owner[name] as unknown as (...args: unknown[]) => unknown;
    Object.defineProperty(owner, name, {
      configurable: true,
      writable: true,
      value: function (this: unknown, ...args: unknown[]) {
        reads.add(label);
        return original.apply(this, args);
      },
    });
    restore.push(() => (own ? Object.defineProperty(owner, name, own) : delete (owner as Record<string, unknown>)[name]));
  };
  watch(process, 'cwd', 'process.cwd()');
  watch(os, 'homedir', 'os.homedir()');
  watch(os, 'tmpdir', 'os.tmpdir()');
  watch(Date, 'now', 'Date.now()');
  watch(performance, 'now', 'performance.now()');
  try {
    const launch = load('launch.cjs')['launch'] as Launch;
    const main = load('main.cjs', { __tugImportMetaUrl: pathToFileURL(path.join(DIR, 'main.cjs')).href, __tugImport: importModule })['main'] as BundledCli['main'];
    return { launch, main, reads: [...reads].sort() };
  } finally {
    for (const undo of restore) undo();
  }
}

const { launch, main, reads } = loadWatched();
if (reads.length > 0) {
  process.stderr.write(`loading the CLI read what a startup snapshot would freeze: ${reads.join(', ')}\n`);
  process.exit(1);
}

v8.startupSnapshot.setDeserializeMainFunction(() => {
  // As bin/tug.cjs: the shell line took NODE_EXTRA_CA_CERTS away from Node's start; what tug runs sees it again.
  if (process.env['TUG_NODE_EXTRA_CA_CERTS'] !== undefined) {
    process.env['NODE_EXTRA_CA_CERTS'] = process.env['TUG_NODE_EXTRA_CA_CERTS'];
    delete process.env['TUG_NODE_EXTRA_CA_CERTS'];
  }
  mark('started from the startup snapshot');
  const argv = process.argv.slice(1);
  const here = blobFolder();
  if (here !== DIR) {
    // The install moved since the blob was built: its paths are stale, so run the bundles where they are now.
    const moved = createRequire(path.join(here, 'launch.cjs'))('./launch.cjs') as { launch: Launch };
    void moved.launch(argv).then((code) => (process.exitCode = code));
    return;
  }
  runtimeRequire = createRequire(path.join(DIR, 'main.cjs')) as Require;
  void launch(argv, { cli: { main, saveCodeCache: () => undefined } }).then((code) => (process.exitCode = code));
});

/** The folder of the blob this process started from (`--snapshot-blob FILE` in Node's own arguments). */
function blobFolder(): string {
  const at = process.execArgv.indexOf('--snapshot-blob');
  const file = at === -1 ? undefined : process.execArgv[at + 1];
  if (file === undefined) return DIR;
  try {
    return path.dirname(realpathSync(file));
  } catch {
    return DIR;
  }
}
