// A headless LSP client for rust-analyzer: spawn, initialize, wait for indexing, ask, and notice when it dies or hangs.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ErrorCodes,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  ResponseError,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type FileEvent,
  type InitializeParams,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node.js';
import { TugError } from '../core/errors.js';
import type { PositionEncoding } from './positions.js';

export interface StartOptions {
  binary: string;
  /** Directory rust-analyzer analyses (the Cargo workspace root). */
  root: string;
  pidFile?: string;
  indexTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** std sources (library/) for `cargo.sysrootSrc`; without them std macros are not expanded. */
  sysrootSrc?: string | null;
}

/**
 * rust-analyzer settings for a refactoring client: no build scripts, proc macros or cargo check, and never the network.
 * The std sources are named explicitly, so std macros expand whichever toolchain is active (see docs/TOOLCHAINS.md).
 */
function settingsFor(sysrootSrc: string | null | undefined) {
  return {
    checkOnSave: false,
    cargo: { buildScripts: { enable: false }, sysrootQueryMetadata: 'none', ...(sysrootSrc ? { sysrootSrc } : {}) },
    procMacro: { enable: false },
    cachePriming: { enable: true },
    files: { watcher: 'client' },
    diagnostics: { enable: false },
  };
}

/** What rust-analyzer logs (at error level) when it has no std sources. */
const NO_STD = /can't load standard library|failed to find sysroot|sysroot.*(not found|missing)/i;

const STDERR_LIMIT = 8_000;

export class RustAnalyzer {
  readonly root: string;
  encoding: PositionEncoding = 'utf-16';
  private readonly child: ChildProcess;
  private readonly connection: ProtocolConnection;
  private readonly requestTimeoutMs: number;
  private stderr = '';
  private exit: { code: number | null; signal: string | null } | null = null;
  private quiescent = false;
  private readonly activeProgress = new Set<string | number>();
  private waiters: Array<() => void> = [];
  private readonly open = new Map<string, number>();
  private readonly pidFile: string | undefined;
  private readonly settings: ReturnType<typeof settingsFor>;
  /** True once rust-analyzer said it could not load std: std macros (write!, format!, …) are then not expanded. */
  stdMissing = false;

  private constructor(child: ChildProcess, root: string, options: StartOptions) {
    this.child = child;
    this.root = root;
    this.pidFile = options.pidFile;
    this.settings = settingsFor(options.sysrootSrc);
    this.requestTimeoutMs = options.requestTimeoutMs ?? Number(process.env['TUG_RA_TIMEOUT_MS'] ?? 60_000);
    this.connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new QuietWriter(child.stdin!));
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      if (NO_STD.test(text)) this.stdMissing = true;
      this.stderr = (this.stderr + text).slice(-STDERR_LIMIT);
    });
    child.on('exit', (code, signal) => {
      this.exit = { code, signal };
      this.wake();
    });
    // A broken pipe after a crash is reported through `exit`; keep it from becoming an unhandled error.
    child.stdin!.on('error', () => undefined);
    this.connection.onRequest('window/workDoneProgress/create', () => null);
    this.connection.onRequest('client/registerCapability', () => null);
    this.connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => this.settings));
    this.connection.onNotification('$/progress', (params: { token: string | number; value: { kind: string } }) => {
      if (params.value.kind === 'begin') this.activeProgress.add(params.token);
      if (params.value.kind === 'end') this.activeProgress.delete(params.token);
      this.wake();
    });
    this.connection.onNotification('experimental/serverStatus', (params: { quiescent: boolean }) => {
      this.quiescent = params.quiescent;
      this.wake();
    });
    this.connection.onError(() => undefined);
    this.connection.listen();
  }

  static async start(options: StartOptions): Promise<RustAnalyzer> {
    const child = spawn(options.binary, [], {
      cwd: options.root,
      stdio: ['pipe', 'pipe', 'pipe'],
      // Offline: rust-analyzer's cargo metadata would otherwise try the network for the std workspace and stall.
      env: { ...process.env, CARGO_NET_OFFLINE: 'true', RA_LOG: process.env['RA_LOG'] ?? 'error' },
    });
    const server = new RustAnalyzer(child, options.root, options);
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (error) => reject(new TugError('RustAnalyzerNotFound', `cannot start ${options.binary}: ${error.message}`, { details: { searched_paths: [options.binary] } })));
    });
    if (options.pidFile) {
      await mkdir(path.dirname(options.pidFile), { recursive: true });
      await writeFile(options.pidFile, `${child.pid}\n`);
    }
    try {
      await server.initialize();
      await server.waitUntilIndexed(options.indexTimeoutMs ?? Number(process.env['TUG_RA_INDEX_TIMEOUT_MS'] ?? 300_000));
    } catch (error) {
      await server.kill();
      throw error;
    }
    return server;
  }

  get alive(): boolean {
    return this.exit === null;
  }

  private async initialize(): Promise<void> {
    const rootUri = pathToFileURL(this.root).href;
    const params: InitializeParams = {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: path.basename(this.root) }],
      capabilities: {
        general: { positionEncodings: ['utf-16'] },
        window: { workDoneProgress: true },
        textDocument: {
          rename: { prepareSupport: true },
          codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['', 'quickfix', 'refactor', 'refactor.extract', 'refactor.inline', 'refactor.rewrite', 'source', 'source.organizeImports'] } }, resolveSupport: { properties: ['edit'] }, dataSupport: true },
          references: {},
          definition: {},
          documentSymbol: { hierarchicalDocumentSymbolSupport: true },
          synchronization: { didSave: false },
        },
        workspace: {
          workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename'] },
          configuration: true,
          didChangeWatchedFiles: { dynamicRegistration: false },
        },
        // Snippet edits and groups let the assist catalog see what rust-analyzer means to offer; lib/rust/snippets.ts reads them.
        experimental: { serverStatusNotification: true, snippetTextEdit: true, codeActionGroup: true },
      },
      initializationOptions: this.settings,
    };
    const result = await this.request<{ capabilities: { positionEncoding?: string } }>(InitializeRequest.method, params, this.requestTimeoutMs);
    if (result.capabilities.positionEncoding === 'utf-8') this.encoding = 'utf-8';
    await this.connection.sendNotification(InitializedNotification.type, {});
  }

  /** Resolves once rust-analyzer says it is quiescent and no progress is open. */
  async waitUntilIndexed(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(this.quiescent && this.activeProgress.size === 0)) {
      this.assertAlive();
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new TugError('IndexingTimeout', `rust-analyzer did not finish indexing within ${Math.round(timeoutMs / 1000)} s`, {
          details: { timeout_seconds: Math.round(timeoutMs / 1000) },
        });
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 1_000));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Sends a request; a dead server is RustAnalyzerCrashed, a silent one RustAnalyzerTimeout. */
  async request<R>(method: string, params: unknown, timeoutMs = this.requestTimeoutMs): Promise<R> {
    this.assertAlive();
    let timer: NodeJS.Timeout | undefined;
    let onExit: (() => void) | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new TugError('RustAnalyzerTimeout', `rust-analyzer did not answer ${method} within ${Math.round(timeoutMs / 1000)} s`, {
          details: { method, timeout_seconds: Math.round(timeoutMs / 1000) },
        }));
        void this.kill();
      }, timeoutMs);
      onExit = () => reject(this.crashed());
      this.child.once('exit', onExit);
    });
    // Settled after the race is decided (a crash noticed through the pipes first): not an unhandled rejection.
    timeout.catch(() => undefined);
    try {
      // No params at all when there are none: vscode-jsonrpc sends `undefined` as `[null]`, which rust-analyzer refuses
      // for `shutdown` (it expects none), so the server was never shut down but killed after a 2 s wait for its exit.
      const sent = params === undefined ? this.connection.sendRequest(method) : this.connection.sendRequest(method, params);
      return await Promise.race([sent as Promise<R>, timeout]);
    } catch (error) {
      // A server that dies can close its pipes (or fail a write) before its exit is reported: that is a crash too. A
      // server that answered with an error is alive, so its answer is not held back to wait for an exit.
      if (!(error instanceof TugError) && !answered(error) && (await this.exited(2_000))) throw this.crashed();
      throw error;
    } finally {
      clearTimeout(timer);
      if (onExit) this.child.off('exit', onExit);
    }
  }

  /** Whether the process has exited, waiting up to `ms` for its exit to be reported. */
  private exited(ms: number): Promise<boolean> {
    if (this.exit !== null) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.child.off('exit', done);
        resolve(this.exit !== null);
      }, ms);
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.child.once('exit', done);
    });
  }

  /** Tells the server about files that changed on disk, giving it their new text, then waits for it to settle. */
  async syncFiles(changes: ReadonlyArray<{ path: string; text: string | null }>): Promise<void> {
    if (changes.length === 0) return;
    const events: FileEvent[] = [];
    for (const change of changes) {
      const uri = pathToFileURL(change.path).href;
      if (change.text === null) {
        events.push({ uri, type: 3 });
        if (this.open.has(uri)) await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
        this.open.delete(uri);
        continue;
      }
      const version = (this.open.get(uri) ?? 0) + 1;
      if (version === 1) {
        events.push({ uri, type: 1 });
        await this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'rust', version, text: change.text } });
      } else {
        events.push({ uri, type: 2 });
        await this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text: change.text }] });
      }
      this.open.set(uri, version);
    }
    await this.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: events });
    this.quiescent = false;
    // The server reports quiescent again once it has taken the changes in; if it never left that state, a short wait suffices.
    const settle = Date.now() + 250;
    while (!this.quiescent && Date.now() < settle) await new Promise((r) => setTimeout(r, 10));
    this.quiescent = true;
    await this.waitUntilIndexed(Number(process.env['TUG_RA_INDEX_TIMEOUT_MS'] ?? 300_000));
  }

  /**
   * Shows the server a file's text in memory without waiting for it to settle: requests sent after this see the text
   * (the server applies notifications in order). The file on disk is not touched.
   */
  async showText(file: string, text: string): Promise<void> {
    const uri = pathToFileURL(file).href;
    const version = (this.open.get(uri) ?? 0) + 1;
    if (version === 1) await this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'rust', version, text } });
    else await this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
    this.open.set(uri, version);
  }

  async shutdown(): Promise<void> {
    if (this.alive) {
      try {
        await this.request(ShutdownRequest.method, undefined, 5_000);
        await this.connection.sendNotification(ExitNotification.type);
      } catch {
        // Ending anyway.
      }
    }
    await this.kill();
  }

  private async kill(): Promise<void> {
    if (this.alive) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 2_000);
      if (this.child.exitCode === null) this.child.kill('SIGTERM');
      await exited;
      clearTimeout(timer);
    }
    this.connection.dispose();
    if (this.pidFile) await rm(this.pidFile, { force: true });
  }

  private assertAlive(): void {
    if (!this.alive) throw this.crashed();
  }

  private crashed(): TugError {
    return new TugError('RustAnalyzerCrashed', `rust-analyzer exited (${this.exit?.signal ?? `code ${this.exit?.code}`})`, {
      details: { exit_code: this.exit?.code ?? null, signal: this.exit?.signal ?? null, stderr: this.stderr.trim() },
    });
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/**
 * Errors vscode-jsonrpc makes on tug's side of the pipe (a failed write, a closed or disposed connection) are
 * ResponseErrors too, but no answer: the server may be dying. Any other ResponseError is the server's own answer.
 */
const CLIENT_SIDE = new Set<number>([ErrorCodes.MessageWriteError, ErrorCodes.MessageReadError, ErrorCodes.PendingResponseRejected, ErrorCodes.ConnectionInactive]);

function answered(error: unknown): boolean {
  return error instanceof ResponseError && !CLIENT_SIDE.has(error.code);
}

/**
 * A failed write to the server (its end of the pipe closed: it is dying) is not thrown: vscode-jsonrpc would reject
 * the request with it and rethrow it where nobody can catch it (an unhandled rejection ends tug with a stack trace).
 * The request then waits for the server's exit, which answers it as RustAnalyzerCrashed, or for its timeout.
 */
class QuietWriter extends StreamMessageWriter {
  override async write(message: Parameters<StreamMessageWriter['write']>[0]): Promise<void> {
    await super.write(message).catch(() => undefined);
  }
}
