// What `tug` and `git tug` run, as CommonJS: bin/tug's and bin/git-tug's shell lines start Node on this file, since Node
// starts a CommonJS entry without its ES module loader, ~10 ms of CPU less per command (docs/PERFORMANCE.md, issue 33
// step 24); `node bin/tug` runs it too.
'use strict';
// Started from the shell line without NODE_EXTRA_CA_CERTS: Node 20 reads that certificate file at start-up (~40 ms here)
// and tug makes no TLS connection. What tug runs sees it again.
// bin/tug's shell line caps the young generation at 4 MB a semi-space (V8's default grows to 16): a cold Python analysis
// of a large repository parses tens of MB of facts, and the larger nursery added ~18 MB to the peak for no CPU saved
// (docs/PERFORMANCE.md, issue 33 step 14).
// It also starts the old generation at 64 MB: a cold Python analysis of a few files (the standard library's `mkstemp`,
// pytest's `getfslineno`) crossed V8's first, much lower limit just before it ended and paid a full mark-compact
// (~23 ms of CPU) to free memory the exit frees anyway; +6-10 MB of peak (docs/PERFORMANCE.md, issue 33 step 25).
if (process.env.TUG_NODE_EXTRA_CA_CERTS !== undefined) {
  process.env.NODE_EXTRA_CA_CERTS = process.env.TUG_NODE_EXTRA_CA_CERTS;
  delete process.env.TUG_NODE_EXTRA_CA_CERTS;
}
const missing = (error) => {
  process.stderr.write(`tug is not built (${error.code || error.message}); run \`npm install\` in its folder first\n`);
  process.exitCode = 10;
};
// One CommonJS file when the build made it (Node loads it much faster than the modules it is made of), else those modules.
const loadLaunch = () => {
  try {
    return Promise.resolve(require('../dist/lib/cli-bundle/launch.cjs'));
  } catch (error) {
    if (error.code !== 'MODULE_NOT_FOUND') throw error;
    return import('../dist/lib/cli/launch.js');
  }
};
/**
 * Where a running daemon's socket would be (lib/workspace/private-dir.ts's privateRoot, lib/daemon/address.ts), when
 * the user wants the daemon at all; null otherwise. Only a hint: the client checks the socket itself before using it.
 */
const daemonSocket = () => {
  if (process.env.TUG_NO_DAEMON === '1' || typeof process.getuid !== 'function') return null;
  const path = require('node:path');
  const fs = require('node:fs');
  try {
    const runtime = process.env.XDG_RUNTIME_DIR;
    const root =
      runtime && path.isAbsolute(runtime) && fs.statSync(runtime, { throwIfNoEntry: false })?.isDirectory()
        ? path.join(runtime, 'tug')
        : path.join(process.env.TMPDIR || require('node:os').tmpdir(), `tug-${process.getuid()}`);
    const socket = path.join(root, 'daemon.sock');
    return fs.lstatSync(socket, { throwIfNoEntry: false })?.isSocket() ? socket : null;
  } catch {
    return null;
  }
};
// With a daemon there, its client alone is loaded first (dist/lib/cli-bundle/client.cjs, ~26 kB): a command the daemon
// takes never loads launch.cjs. Without one, or when it hands the command back, launch runs it here.
const viaDaemon = (argv) => {
  if (daemonSocket() === null) return Promise.resolve({ tried: false, code: null });
  let client;
  try {
    client = require('../dist/lib/cli-bundle/client.cjs');
  } catch (error) {
    if (error.code !== 'MODULE_NOT_FOUND') throw error;
    return Promise.resolve({ tried: false, code: null });
  }
  return client.tryDaemon(argv).then(
    (code) => ({ tried: true, code }),
    () => ({ tried: false, code: null }),
  );
};
const argv = process.argv.slice(2);
viaDaemon(argv).then(({ tried, code }) => {
  if (code !== null) {
    process.exitCode = code;
    return undefined;
  }
  return loadLaunch().then(async ({ launch }) => {
    process.exitCode = await launch(argv, { daemonTried: tried });
  }, missing);
});
