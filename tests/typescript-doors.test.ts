// A TypeScript rename through every front door — `git tug`, the MCP server's rename tool, the library and `tug tool` — gives the CLI's result; refactors the adapter does not offer answer UnsupportedByAdapter.
import test from 'ava';
import { execa } from './helpers/execa.js';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { renameSymbol } from '../lib/index.js';
import { TUG_BIN, tug } from './helpers/cli.js';
import { TS_ENV as ENV, tsFixture } from './helpers/typescript.js';

// The SDK's 60 s default is a guard against a hang, not a time limit; a loaded machine can take longer to answer.
const GUARD = { timeout: 900_000 };

test('git tug, MCP, the library and tug tool make the same rename commit as the CLI', async (t) => {
  const repo = await tsFixture('plain-js');
  const cli = await tug(repo.root, ['rename', 'lib/util.js:7:10', 'toTitle'], { env: ENV });
  t.is(cli.exitCode, 0, cli.stdout);
  const git = await execa('git', ['tug', 'rename', 'lib/util.js:7:10', 'toTitle', '--json'], { cwd: repo.root, env: { ...ENV, PATH: `${path.dirname(TUG_BIN)}${path.delimiter}${process.env['PATH']}` }, reject: false });
  t.is(JSON.parse(git.stdout).git.commit, cli.json.git.commit, git.stderr);
  const client = new Client({ name: 'tug-test', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe', env: { ...process.env, ...ENV } as Record<string, string> }));
  try {
    const result = await client.callTool({ name: 'tug_rename_symbol', arguments: { file: 'lib/util.js', line: 7, column: 10, new_name: 'toTitle' } }, undefined, GUARD);
    t.falsy(result.isError, JSON.stringify(result.structuredContent));
    t.is((result.structuredContent as { git: { commit: string } }).git.commit, cli.json.git.commit);
  } finally {
    await client.close();
  }
  const library = (await renameSymbol({ workspace: repo.root, file: 'lib/util.js', line: 7, column: 10, new_name: 'toTitle' })) as { git: { commit: string } };
  t.is(library.git.commit, cli.json.git.commit);
  const tool = await tug(repo.root, ['tool', 'tug_rename_symbol', '--args', JSON.stringify({ file: 'lib/util.js', line: 7, column: 10, new_name: 'toTitle' })], { env: ENV });
  t.is(tool.json.git.commit, cli.json.git.commit, tool.stdout);
  await repo.cleanup();
});

test('refactors the TypeScript adapter does not offer yet answer UnsupportedByAdapter', async (t) => {
  const repo = await tsFixture('plain-js');
  const runs = await Promise.all([
    tug(repo.root, ['run', 'inline', '--at', 'lib/index.js:6:20'], { env: ENV }),
  ]);
  for (const run of runs) {
    t.is(run.json?.error?.code, 'UnsupportedByAdapter', run.stdout);
    t.is(run.exitCode, 2);
  }
  await repo.cleanup();
});
