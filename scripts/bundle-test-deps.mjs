// Bundles execa into one module for the test files (dist/tests/vendor/execa.mjs, loaded by tests/helpers/execa.ts):
// execa and its dependencies are about 100 ES modules, and ava starts a fresh process for each of the ~220 test files, so
// each paid 0.2–0.3 CPU s loading them before its first test; the bundle loads in about 0.04.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

await build({
  stdin: { contents: "export * from 'execa';", resolveDir: ROOT, sourcefile: 'execa-entry.mjs' },
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  charset: 'ascii',
  logLevel: 'warning',
  // execa's CommonJS dependencies (cross-spawn) call require() for Node's built-in modules.
  banner: { js: "import { createRequire as __tugCreateRequire } from 'node:module';\nconst require = __tugCreateRequire(import.meta.url);" },
  outfile: path.join(ROOT, 'dist/tests/vendor/execa.mjs'),
});
