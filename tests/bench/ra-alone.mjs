// rust-analyzer on its own, for comparison with tug's cold analyze-impact: spawn, initialize, index, one rename; prints the ms.
// usage: node tests/bench/ra-alone.mjs <crate dir> <file> <line> <col> <new name>   (line and col 1-based, ASCII columns)
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './lib.mjs';

const [root, file, line, col, newName] = process.argv.slice(2);
const started = process.hrtime.bigint();
const { RustAnalyzer } = await import(pathToFileURL(path.join(ROOT, 'dist/lib/rust/lsp-client.js')).href);
const { stdSourcesFor } = await import(pathToFileURL(path.join(ROOT, 'dist/lib/rust/std-sources.js')).href);
const { requireRustAnalyzer } = await import(pathToFileURL(path.join(ROOT, 'dist/lib/rust/discovery.js')).href);
const binary = (await requireRustAnalyzer()).path;
const server = await RustAnalyzer.start({ binary, root, sysrootSrc: await stdSourcesFor(binary) });
const edit = await server.request('textDocument/rename', {
  textDocument: { uri: pathToFileURL(path.join(root, file)).href },
  position: { line: Number(line) - 1, character: Number(col) - 1 },
  newName,
});
const ms = Number(process.hrtime.bigint() - started) / 1e6;
await server.shutdown();
if (!edit) throw new Error('rust-analyzer renamed nothing');
process.stdout.write(`${ms}\n`);
