// tools/list for tug's own tools is made by the build (scripts/bundle-cli.mjs) and served from its file by the bundled
// server: the file must be exactly what the live registry makes, tied to the bundle built with it.
import test from 'ava';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { buildToolList, prebuiltToolList, TOOL_LIST_FILE } from '../lib/mcp/tool-list.js';
import { registryWith } from '../lib/tool-provider.js';
import { makeRepo } from './helpers/repo.js';
import { TUG_BIN } from './helpers/cli.js';

const BUNDLE = fileURLToPath(new URL('../lib/cli-bundle/main.cjs', import.meta.url));

const fileText = () => readFileSync(TOOL_LIST_FILE, 'utf8');
const tokenOf = (text: string) => text.slice(0, text.indexOf('\n'));

test('the build wrote the list the live registry makes, under the token its bundle carries', (t) => {
  const text = fileText();
  const token = tokenOf(text);
  t.regex(token, /^[0-9a-f]{24}$/);
  t.is(text.slice(token.length + 1), JSON.stringify(buildToolList(registryWith())));
  t.true(readFileSync(BUNDLE, 'utf8').includes(`"${token}"`), 'the bundle was built with the same token');
});

test('a list file of another build, or a damaged one, is not used', (t) => {
  const text = fileText();
  const token = tokenOf(text);
  t.truthy(prebuiltToolList(text, token));
  t.is(prebuiltToolList(text, 'f'.repeat(24)), undefined);
  t.is(prebuiltToolList(text, undefined), undefined);
  t.is(prebuiltToolList(`${token}\n{"tools":[`, token), undefined);
  t.is(prebuiltToolList('no newline', token), undefined);
});

test('`tug mcp` answers tools/list with the file\'s list, byte for byte', async (t) => {
  const repo = await makeRepo({ 'app.py': 'x = 1\n' });
  const child = spawn(TUG_BIN, ['mcp'], { cwd: repo.root, env: { ...process.env, TUG_NO_DAEMON: '1' }, stdio: ['pipe', 'pipe', 'ignore'] });
  try {
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const send = (message: object) => child.stdin!.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '0' } } });
    t.is(JSON.parse((await lines.next()).value).id, 1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    const line = (await lines.next()).value as string;
    const file = fileText();
    t.is(line, `{"result":${file.slice(tokenOf(file).length + 1)},"jsonrpc":"2.0","id":2}`);
  } finally {
    child.stdin!.end();
    await new Promise((resolve) => child.once('exit', resolve));
    await repo.cleanup();
  }
});
