// Bundles the compiled CLI (dist/lib/cli/main.js) into one CommonJS file that bin/tug compiles through V8's code cache (lib/cli/bundle-loader.ts), and what bin/tug runs first (launch.js) into another; then makes the startup snapshot bin/tug starts from when it can.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * string-width (yargs' and cliui's copies) builds an emoji RegExp and an Intl.Segmenter when it is loaded, ~20 ms that
 * only help text needs. Each import of it becomes a stub that loads the real module, the same version the importer
 * would have got, on the first call.
 */
const lazyStringWidth = {
  name: 'lazy-string-width',
  setup(bundle) {
    bundle.onResolve({ filter: /^string-width$/ }, (args) => {
      if (args.pluginData === 'real') return undefined;
      // Relative, so the bundle names no directory of the machine that built it.
      return { path: path.relative(ROOT, args.resolveDir), namespace: 'lazy-string-width' };
    });
    bundle.onLoad({ filter: /.*/, namespace: 'lazy-string-width' }, (args) => ({
      contents: "let real;\nexport default function stringWidth(text, options) {\n  real ??= require('string-width').default;\n  return real(text, options);\n}\n",
      resolveDir: path.resolve(ROOT, args.path),
      pluginData: 'real',
    }));
  },
};

/**
 * yargs guesses a version when it is made (tug sets its own later) by walking up from its "main file" and reading every
 * directory on the way until one holds a package.json. In the bundle its guess at that file (the part of its own path
 * before `node_modules`) is empty, so it walked up from the user's working directory: every command listed each parent
 * directory (/tmp here: 3,000 entries, 2–15 ms, far more when the disk is busy) and read whatever package.json it met.
 * Start from the bundle's own folder instead: a few small directories up to tug's package.json.
 */
const yargsFromBundle = {
  name: 'yargs-from-bundle',
  setup(bundle) {
    bundle.onLoad({ filter: /[\\/]yargs[\\/]lib[\\/]platform-shims[\\/]esm\.mjs$/ }, async (args) => {
      const source = readFileSync(args.path, 'utf8');
      const from = 'mainFilename: mainFilename || process.cwd(),';
      if (!source.includes(from)) throw new Error(`${args.path}: yargs changed; update scripts/bundle-cli.mjs`);
      // `__filename` is the bundle's path: bundle-loader.ts passes it to the bundle's wrapper.
      return { contents: source.replace(from, 'mainFilename: __filename,'), loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
};

// Files of an earlier build (another layout, split chunks) must not linger next to the new ones.
rmSync(path.join(ROOT, 'dist/lib/cli-bundle'), { recursive: true, force: true });

/**
 * Both bundles: CommonJS for Node 20. Without comments and indentation a bundle is a quarter smaller and pure ASCII,
 * which the loader decodes several times faster than UTF-8; names stay, so a TUG_DEBUG backtrace still reads.
 */
const common = { bundle: true, format: 'cjs', platform: 'node', target: 'node20', minifyWhitespace: true, charset: 'ascii', logLevel: 'warning' };

/**
 * MCP's tools/list for tug's own tools, made here from the same compiled modules as the bundle, so a server started from
 * the bundle reads it instead of building it (~100 ms of CPU: zod → JSON Schema for every tool). The bundle and the file
 * carry the same new token; a server meeting another build's file builds the list itself (lib/mcp/tool-list.ts).
 */
const BUILD_TOKEN = randomBytes(12).toString('hex');
const dist = (relative) => import(pathToFileURL(path.join(ROOT, 'dist/lib', relative)).href);
const [{ buildToolList, toolListFileText, TOOL_LIST_FILE }, { registryWith }] = await Promise.all([dist('mcp/tool-list.js'), dist('tool-provider.js')]);
writeFileSync(TOOL_LIST_FILE, toolListFileText(BUILD_TOKEN, buildToolList(registryWith())));

await build({
  ...common,
  entryPoints: [path.join(ROOT, 'dist/lib/cli/main.js')],
  outfile: path.join(ROOT, 'dist/lib/cli-bundle/main.cjs'),
  // The loader passes the bundle's own file URL under this name, so `new URL(..., import.meta.url)` finds package.json,
  // python-worker/ and ui/ as it does from dist/lib/cli/.
  define: { 'import.meta.url': '__tugImportMetaUrl', __tugBuildToken: JSON.stringify(BUILD_TOKEN) },
  plugins: [lazyStringWidth, yargsFromBundle],
  // ruff's WebAssembly build reads its .wasm beside its own file, so it stays a package of node_modules, loaded on use.
  external: ['@astral-sh/ruff-wasm-nodejs'],
});

/**
 * bin/tug's first step: the daemon client, the code-cache loader and the lean `tug snapshot` as one small CommonJS
 * file. Node 20 loads ES modules one by one through its asynchronous loader, and those ~20 small modules took longer
 * than the snapshot's own git calls. It shares no state with main.cjs (the lean snapshot prints a string and hands over
 * nothing else), so the two may each hold a copy of a module.
 */
await build({
  ...common,
  entryPoints: [path.join(ROOT, 'dist/lib/cli/launch.js')],
  outfile: path.join(ROOT, 'dist/lib/cli-bundle/launch.cjs'),
  // Same depth as dist/lib/cli/, so the loader's `new URL('../cli-bundle/main.cjs', import.meta.url)` holds.
  define: { 'import.meta.url': '__tugLaunchUrl' },
  banner: { js: "var __tugLaunchUrl = require('node:url').pathToFileURL(__filename).href;" },
  // The lean snapshot's code (git, the session, the config and its zod schema) is a bundle of its own: V8 would
  // otherwise read and pre-parse its ~700 kB on every command's start (~15 ms) for the one command that runs it.
  external: ['../cli-bundle/snapshot.cjs'],
});

/**
 * The daemon client alone, which bin/tug.cjs loads first when a daemon's socket is there: a command the daemon takes
 * then never loads launch.cjs (its Python start-up, child_process and streams: ~5-8 ms of a client's start).
 */
await build({
  ...common,
  entryPoints: [path.join(ROOT, 'dist/lib/daemon/client.js')],
  outfile: path.join(ROOT, 'dist/lib/cli-bundle/client.cjs'),
  // Same depth as dist/lib/daemon/, so buildId's `new URL('../cli/main.js', import.meta.url)` names the same files.
  define: { 'import.meta.url': '__tugLaunchUrl' },
  banner: { js: "var __tugLaunchUrl = require('node:url').pathToFileURL(__filename).href;" },
});

await build({
  ...common,
  entryPoints: [path.join(ROOT, 'dist/lib/ops/snapshot/run.js')],
  outfile: path.join(ROOT, 'dist/lib/cli-bundle/snapshot.cjs'),
  define: { 'import.meta.url': '__tugLaunchUrl' },
  banner: { js: "var __tugLaunchUrl = require('node:url').pathToFileURL(__filename).href;" },
});

/**
 * The startup snapshot: a V8 heap with launch.cjs and main.cjs loaded (lib/cli/startup-snapshot.ts), which bin/tug
 * starts Node from instead of loading the bundles, ~40-60 ms of CPU less per cold command. Node refuses a blob made by
 * another Node or under other V8 flags, so it is made by the `node` bin/tug will find on PATH, under bin/tug's own heap
 * flags, and `startup.node` beside it names that Node and carries its timestamp: bin/tug uses the blob only while PATH
 * still finds that very file, unchanged. A machine where it cannot be made gets no blob; bin/tug then loads the bundles.
 */
await build({
  ...common,
  entryPoints: [path.join(ROOT, 'dist/lib/cli/startup-snapshot.js')],
  outfile: path.join(ROOT, 'dist/lib/cli-bundle/startup.cjs'),
});
// Code restored from a blob cannot run `import()`; a file Node loads at run time can (the review TUI is an ES module).
writeFileSync(
  path.join(ROOT, 'dist/lib/cli-bundle/import.cjs'),
  "// Loads an ES module for the CLI started from the startup snapshot (lib/cli/startup-snapshot.ts).\nmodule.exports = (url) => import(url);\n",
);
makeStartupSnapshot();

function makeStartupSnapshot() {
  const folder = path.join(ROOT, 'dist/lib/cli-bundle');
  const node = nodeOnPath();
  if (node === null) {
    console.warn('bundle-cli: no `node` on PATH, so no startup snapshot (bin/tug loads the bundles instead)');
    return;
  }
  const flags = /\bh="([^"]*)"/.exec(readFileSync(path.join(ROOT, 'bin/tug'), 'utf8'))?.[1];
  if (flags === undefined) throw new Error('bin/tug: no heap flags (h="...") found; update scripts/bundle-cli.mjs');
  const blob = path.join(folder, 'startup.blob');
  const env = { ...process.env };
  for (const name of ['NODE_OPTIONS', 'NODE_EXTRA_CA_CERTS', 'NODE_V8_COVERAGE']) delete env[name];
  const made = spawnSync(node, [...flags.split(' '), '--snapshot-blob', blob, '--build-snapshot', path.join(folder, 'startup.cjs')], { cwd: folder, env, encoding: 'utf8' });
  if (made.status !== 0) {
    rmSync(blob, { force: true });
    // Loading the bundles read the environment, the clock or the working directory: that code must change, never ship.
    if (made.stderr.includes('would freeze')) throw new Error(`bundle-cli: ${made.stderr}`);
    console.warn(`bundle-cli: no startup snapshot (exit ${made.status ?? made.signal}); bin/tug loads the bundles instead:\n${made.stderr}`);
    return;
  }
  const reference = path.join(folder, 'startup.node');
  writeFileSync(reference, `${node}\n`);
  // Same timestamp as that Node: an upgrade puts another file there (another timestamp), and bin/tug then skips the blob.
  execFileSync('touch', ['-r', node, reference]);
}

/** The `node` a shell finds on PATH, as bin/tug's shell line looks for it (an empty entry is the current folder). */
function nodeOnPath() {
  for (const entry of (process.env.PATH ?? '').split(':')) {
    const candidate = `${entry === '' ? '.' : entry}/node`;
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}
