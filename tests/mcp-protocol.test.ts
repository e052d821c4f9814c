// `tug mcp` at the protocol level: every line it cannot take gets a JSON-RPC answer, resources use the spec's codes and
// filter, hints carry the spec's names, and the server stays inside the repository it was started in.
import test from 'ava';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makeRepo, type TestRepo } from './helpers/repo.js';
import { TUG_BIN } from './helpers/cli.js';
import { ERROR_CODES, type ErrorCode } from '../lib/index.js';
import { agentHint } from '../lib/mcp/hints.js';

/** A raw line client: what a buggy or hostile peer sends, and every line the server answers. */
class RawPeer {
  readonly lines: any[] = [];
  private buffer = '';
  private waiters: Array<() => void> = [];
  readonly exited: Promise<number | null>;
  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      this.buffer += text;
      for (let i = this.buffer.indexOf('\n'); i !== -1; i = this.buffer.indexOf('\n')) {
        this.lines.push(JSON.parse(this.buffer.slice(0, i)));
        this.buffer = this.buffer.slice(i + 1);
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }
  send(text: string): void {
    this.child.stdin.write(text.endsWith('\n') ? text : `${text}\n`);
  }
  async next(): Promise<any> {
    const seen = this.lines.length;
    while (this.lines.length === seen) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.lines[seen];
  }
}

function startRaw(t: { teardown(fn: () => void): void }, repo: TestRepo): RawPeer {
  const peer = new RawPeer(spawn('node', [TUG_BIN, 'mcp'], { cwd: repo.root, stdio: ['pipe', 'pipe', 'pipe'] }));
  t.teardown(() => {
    if (peer.child.exitCode === null) peer.child.kill();
  });
  return peer;
}

async function connect(cwd: string): Promise<Client> {
  const client = new Client({ name: 'tug-protocol-test', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd, stderr: 'pipe' }));
  return client;
}

test('malformed lines get -32700 / -32600 answers and the server keeps serving', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const peer = startRaw(t, repo);
  peer.send('{"jsonrpc": "2.0", "id": 1, "method": "ping"');
  t.like(await peer.next(), { jsonrpc: '2.0', id: null, error: { code: -32700 } });
  peer.send('{"jsonrpc":"2.0","id":7,"method":42}');
  t.like(await peer.next(), { id: 7, error: { code: -32600 } });
  peer.send('[{"jsonrpc":"2.0","id":8,"method":"ping"}]');
  const batch = await peer.next();
  t.like(batch, { id: null, error: { code: -32600 } });
  t.regex(batch.error.message, /batch/);
  peer.send('{"jsonrpc":"2.0","id":9,"method":"ping"}');
  t.like(await peer.next(), { id: 9, result: {} });
  peer.child.stdin.end();
  t.is(await peer.exited, 0);
  await repo.cleanup();
});

test('a message over the size limit is answered with an error, skipped, and the next one is served', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const peer = startRaw(t, repo);
  const huge = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping', params: { pad: 'x'.repeat(11 * 1024 * 1024) } });
  peer.send(huge);
  const answer = await peer.next();
  t.is(answer.error.code, -32600);
  t.regex(answer.error.message, /larger than 10485760 bytes/);
  peer.send('{"jsonrpc":"2.0","id":3,"method":"ping"}');
  t.like(await peer.next(), { id: 3, result: {} });
  t.is(peer.lines.length, 2, 'one answer for the oversized message, one for the ping');
  peer.child.stdin.end();
  t.is(await peer.exited, 0);
  await repo.cleanup();
});

test('resources: unknown ones are -32002, bad queries -32602, and symbols filter by kind and name', async (t) => {
  const repo = await makeRepo({ 'app.py': 'def f():\n    return 1\n\n\nclass C:\n    def f(self):\n        return f()\n\n\ndef g():\n    pass\n' });
  const client = await connect(repo.root);
  const read = async (uri: string) => JSON.parse(String(((await client.readResource({ uri })).contents[0] as { text: string }).text));
  const all = await read('workspace://symbols');
  t.deepEqual(all.symbols.map((s: any) => s.name), ['f', 'C', 'f', 'g']);
  t.deepEqual((await read('workspace://symbols?kind=function')).symbols.map((s: any) => s.name), ['f', 'g']);
  t.deepEqual((await read('workspace://symbols?name=f')).symbols.map((s: any) => s.kind), ['function', 'method']);
  t.deepEqual((await read('workspace://symbols?kind=method&name=f&file=app.py')).symbols.map((s: any) => s.container), ['C']);
  await t.throwsAsync(client.readResource({ uri: 'workspace://nothing' }), { code: -32002 } as object);
  await t.throwsAsync(client.readResource({ uri: 'workspace://symbols?knd=class' }), { code: -32602, message: /"knd".*kind/ } as object);
  const missing = await t.throwsAsync(client.readResource({ uri: 'workspace://log/ffffff' }), { code: -32002 } as object);
  t.like((missing as any).data, { code: 'LogEntryNotFound', exit_code: 3 });
  await client.close();
  await repo.cleanup();
});

test('annotations use the spec names and tell the truth', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const client = await connect(repo.root);
  const { tools } = await client.listTools();
  const hints = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations!]));
  for (const tool of tools) t.deepEqual(Object.keys(tool.annotations!).sort(), ['destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint', 'title'], tool.name);
  t.true(hints['tug_move_file']!.destructiveHint);
  const { title: _a, ...patchset } = hints['tug_apply_patchset']!;
  const { title: _b, ...patch } = hints['tug_apply_patch']!;
  t.deepEqual(patchset, { ...patch, openWorldHint: patchset.openWorldHint });
  t.true(hints['tug_run_command']!.openWorldHint);
  t.false(hints['tug_read_file']!.openWorldHint);
  t.true(hints['tug_read_file']!.readOnlyHint);
  await client.close();
  await repo.cleanup();
});

test('the server stays in its repository: workspace_path outside is PathOutsideWorkspace; workspace and session_dir are not parameters', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n', 'sub/b.py': 'y = 2\n' });
  const other = await makeRepo({ 'secret.txt': 'no\n' });
  const client = await connect(repo.root);
  await client.listTools();
  const inside = await client.callTool({ name: 'tug_read_file', arguments: { path: 'b.py', workspace_path: 'sub' } });
  t.falsy(inside.isError, JSON.stringify(inside.content));
  for (const workspace_path of [other.root, '..', `${repo.root}/../${other.root.split('/').pop()}`]) {
    const outside = await client.callTool({ name: 'tug_read_file', arguments: { path: 'secret.txt', workspace_path } });
    t.true(outside.isError, workspace_path);
    t.like((outside.structuredContent as any).error, { code: 'PathOutsideWorkspace', exit_code: 2 });
  }
  for (const name of ['workspace', 'session_dir']) {
    const refused = await client.callTool({ name: 'tug_snapshot', arguments: { [name]: other.root } });
    t.true(refused.isError);
    t.like((refused.structuredContent as any).error, { code: 'InvalidArgument', details: { argument: name } });
  }
  const { tools } = await client.listTools();
  for (const tool of tools) {
    const properties = Object.keys(tool.inputSchema.properties ?? {});
    t.false(properties.includes('session_dir') || properties.includes('workspace'), tool.name);
  }
  await client.close();
  await repo.cleanup();
  await other.cleanup();
});

test('every hint an agent sees names tool parameters or resources, never a CLI flag or command', (t) => {
  for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
    t.false(/(^|\s)--[a-z]|`tug |`git tug /.test(agentHint(code)), `${code}: ${agentHint(code)}`);
  }
});
