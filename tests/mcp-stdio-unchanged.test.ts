// tools/list's text is made once (sentUnchanged): what goes out on stdout is the same JSON the message would give.
import test from 'ava';
import { PassThrough } from 'node:stream';
import { LineTransport, sentUnchanged } from '../lib/mcp/stdio.js';

async function sent(messages: object[]): Promise<string[]> {
  const output = new PassThrough();
  const transport = new LineTransport(new PassThrough(), output);
  for (const message of messages) await transport.send(message as never);
  return output.read().toString('utf8').split('\n').slice(0, -1);
}

test('a result marked unchanged goes out as the same JSON, for every id, and other messages as before', async (t) => {
  const result = sentUnchanged({ tools: [{ name: 'tug_x', description: 'line\nbreak "quoted" é', inputSchema: { type: 'object' } }] });
  const messages = [
    { result, jsonrpc: '2.0', id: 1 },
    { result, jsonrpc: '2.0', id: 'a"b' },
    { jsonrpc: '2.0', id: 3, result: { other: true } },
    { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } },
  ];
  const lines = await sent(messages);
  t.deepEqual(lines, messages.map((m) => JSON.stringify(m)));
  t.deepEqual(lines.map((l) => JSON.parse(l)), messages);
});
