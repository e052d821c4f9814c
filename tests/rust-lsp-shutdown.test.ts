// How tug's LSP client talks to rust-analyzer where it cost time for nothing: `shutdown` takes no params, and
// rust-analyzer refuses one sent with `[null]` (what vscode-jsonrpc makes of an undefined param), after which tug waited
// 2 s for an exit that never came and killed the server (2 s of every cold Rust command and daemon stop); and an error
// answer was held up to 2 s to see whether the server was dying (2 s of every refusal rust-analyzer gives). Not an
// answer: a write that fails because the server is dying, which vscode-jsonrpc reports as a ResponseError too (and
// rethrew where nothing could catch it, ending tug with a stack trace). A stand-in server that answers as
// rust-analyzer does, and records what it got, checks all three without a toolchain.
import test from 'ava';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { ResponseError } from 'vscode-languageserver-protocol/node.js';
import { RustAnalyzer } from '../lib/rust/lsp-client.js';

const JSONRPC = createRequire(import.meta.url).resolve('vscode-jsonrpc/node');

/** A Node script speaking LSP on stdio: initialize, quiescent at once, and `shutdown` refused when it has params. */
function standIn(log: string): string {
  return `#!/usr/bin/env node
const fs = require('node:fs');
const rpc = require(${JSON.stringify(JSONRPC)});
const connection = rpc.createMessageConnection(new rpc.StreamMessageReader(process.stdin), new rpc.StreamMessageWriter(process.stdout));
const note = (line) => fs.appendFileSync(${JSON.stringify(log)}, line + '\\n');
connection.onRequest('initialize', () => ({ capabilities: {} }));
connection.onNotification('initialized', () => connection.sendNotification('experimental/serverStatus', { health: 'ok', quiescent: true }));
// vscode-jsonrpc passes the params (when the request has any) and then a cancellation token.
connection.onRequest('shutdown', (...args) => {
  if (args.length > 1) {
    note('shutdown refused: ' + JSON.stringify(args[0]));
    return new rpc.ResponseError(-32602, 'Failed to deserialize shutdown: invalid type: sequence, expected unit');
  }
  note('shutdown');
  return null;
});
// Refused as rust-analyzer refuses a rename where there is nothing to rename; this server then dies soon after.
connection.onRequest('textDocument/prepareRename', () => {
  setTimeout(() => process.exit(3), 300);
  return new rpc.ResponseError(-32602, 'No references found at position');
});
// Stops reading (its end of the pipe closed, as a dying process's is) and exits 0.3 s later: the next request's
// write fails before the exit is seen.
connection.onRequest('tug/stopReading', () => {
  setTimeout(() => {
    process.stdin.pause();
    fs.closeSync(0);
    setTimeout(() => process.exit(4), 300);
  }, 20);
  return null;
});
connection.onNotification('exit', () => {
  note('exit');
  process.exit(0);
});
connection.listen();
`;
}

/** Runs `body` on a RustAnalyzer client of a stand-in server in a scratch dir (its log file in `log`), shut down and removed after. */
async function withStandIn(body: (server: RustAnalyzer, log: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tug-lsp-shutdown-'));
  try {
    const log = path.join(dir, 'log');
    const binary = path.join(dir, 'rust-analyzer');
    await writeFile(binary, standIn(log));
    await chmod(binary, 0o755);
    const server = await RustAnalyzer.start({ binary, root: dir, requestTimeoutMs: 60_000, indexTimeoutMs: 60_000 });
    try {
      await body(server, log);
    } finally {
      await server.shutdown();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('a rust-analyzer is shut down with a shutdown request without params, which it accepts', async (t) => {
  await withStandIn(async (server, log) => {
    await server.shutdown();
    t.false(server.alive);
    // The exit notification may or may not be read before tug's SIGTERM ends the process; the shutdown was accepted.
    const got = (await readFile(log, 'utf8')).trim().split('\n');
    t.is(got[0], 'shutdown', got.join('\n'));
    t.true(got.every((line) => line === 'shutdown' || line === 'exit'), got.join('\n'));
  });
});

test("an error answer is the server's answer at once, not held to see whether the server dies", async (t) => {
  await withStandIn(async (server) => {
    // Held, the answer met the server's exit 0.3 s later and came out as RustAnalyzerCrashed.
    const error = await t.throwsAsync(server.request('textDocument/prepareRename', { textDocument: { uri: 'file:///x.rs' }, position: { line: 0, character: 0 } }));
    t.true(error instanceof ResponseError, String(error));
    t.is(error?.message, 'No references found at position');
  });
});

test('a request whose write fails because the server is dying is RustAnalyzerCrashed, not the write error', async (t) => {
  await withStandIn(async (server) => {
    await server.request('tug/stopReading', {});
    await new Promise((resolve) => setTimeout(resolve, 150));
    // vscode-jsonrpc reports the failed write as a ResponseError too (MessageWriteError): not an answer of the server.
    const error = await t.throwsAsync(server.request('textDocument/hover', { textDocument: { uri: 'file:///x.rs' }, position: { line: 0, character: 0 } }));
    t.is((error as { code?: string } | undefined)?.code, 'RustAnalyzerCrashed', String(error));
  });
});
