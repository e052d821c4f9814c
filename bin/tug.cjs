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
loadLaunch().then(async ({ launch }) => {
  process.exitCode = await launch(process.argv.slice(2));
}, missing);
