// Bundles the compiled CLI (dist/lib/cli/main.js) into one CommonJS file that bin/tug compiles through V8's code cache (lib/cli/bundle-loader.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

await build({
  entryPoints: [path.join(ROOT, 'dist/lib/cli/main.js')],
  outfile: path.join(ROOT, 'dist/lib/cli-bundle/main.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // The loader passes the bundle's own file URL under this name, so `new URL(..., import.meta.url)` finds package.json,
  // python-worker/ and ui/ as it does from dist/lib/cli/.
  define: { 'import.meta.url': '__tugImportMetaUrl' },
  // Without comments and indentation the bundle is a quarter smaller and pure ASCII, which the loader decodes several
  // times faster than UTF-8. Names stay, so a TUG_DEBUG backtrace still reads.
  minifyWhitespace: true,
  charset: 'ascii',
  logLevel: 'warning',
});
