// Only a person trusts a repository: `tug trust` records trust from a terminal or with --confirm, never from a command
// tug runs (run_command, a verification: TUG_RUN_ID / TUG_SANDBOX) and never under a tug MCP server or daemon.
import test from 'ava';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { tug, TUG_BIN } from '../helpers/cli.js';
import { tugOnTerminal } from '../helpers/pty.js';
import { makeRepo } from '../helpers/repo.js';
import { trustRefusal } from '../../lib/trust/person.js';

const FILES = { 'app.py': 'def f():\n    return 1\n', 'tug.toml': 'verify = "tests"\ntest_command = ["sh", "-c", "true"]\n' };

async function setup() {
  const config = await mkdtemp(path.join(os.tmpdir(), 'tug-person-config-'));
  const runtime = await mkdtemp(path.join(os.tmpdir(), 'tug-person-rt-'));
  const repo = await makeRepo(FILES);
  const trustJson = path.join(config, 'tug', 'trust.json');
  const env = { XDG_CONFIG_HOME: config, XDG_RUNTIME_DIR: runtime, TUG_DAEMON_AUTOSTART: '0' };
  const cleanup = async () => {
    await repo.cleanup();
    await rm(config, { recursive: true, force: true });
    await rm(runtime, { recursive: true, force: true });
  };
  return { repo, env, trustJson, cleanup };
}

test('without a terminal, tug trust refuses (TrustRefused, exit 2) unless --confirm; --status and --revoke need no person', async (t) => {
  const { repo, env, trustJson, cleanup } = await setup();
  const refused = await tug(repo.root, ['trust', '--json'], { env });
  t.is(refused.exitCode, 2, refused.stdout + refused.stderr);
  t.is(refused.json.error.code, 'TrustRefused');
  t.regex(refused.json.error.message, /stdin is not a terminal/);
  t.false(existsSync(trustJson), 'nothing recorded');
  t.is((await tug(repo.root, ['trust', '--status', '--json'], { env })).json.trust, 'untrusted');
  const confirmed = await tug(repo.root, ['trust', '--confirm', '--json'], { env });
  t.is(confirmed.exitCode, 0, confirmed.stdout);
  t.is(confirmed.json.trust, 'trusted');
  t.is((await tug(repo.root, ['trust', '--revoke', '--json'], { env })).json.trust, 'untrusted');
  await cleanup();
});

test('on a terminal, tug trust records trust', async (t) => {
  const { repo, env, cleanup } = await setup();
  const run = await tugOnTerminal(repo.root, ['trust'], env);
  t.is(run.exitCode, 0, run.screen);
  t.is((await tug(repo.root, ['trust', '--status', '--json'], { env })).json.trust, 'trusted');
  await cleanup();
});

test('inside a tug sandbox (TUG_RUN_ID, TUG_SANDBOX) even --confirm and a terminal are refused', async (t) => {
  const { repo, env, trustJson, cleanup } = await setup();
  for (const marker of [{ TUG_RUN_ID: 'tug-run-1' }, { TUG_SANDBOX: '1' }] as Array<Record<string, string>>) {
    const run = await tug(repo.root, ['trust', '--confirm', '--json'], { env: { ...env, ...marker } });
    t.is(run.json?.error?.code, 'TrustRefused', run.stdout + run.stderr);
    t.regex(run.json.error.message, /inside a tug sandbox/);
    const terminal = await tugOnTerminal(repo.root, ['trust'], { ...env, ...marker });
    t.is(terminal.exitCode, 2, terminal.screen);
  }
  t.false(existsSync(trustJson));
  await cleanup();
});

test("an agent's run_command cannot trust the user's repository", async (t) => {
  const { repo, env, trustJson, cleanup } = await setup();
  const command = `node ${TUG_BIN} -C ${repo.root} trust --confirm --json`;
  const run = await tug(repo.root, ['tool', 'run_command', '--args', JSON.stringify({ command })], { env });
  t.truthy(run.json, run.stdout + run.stderr);
  t.regex(JSON.stringify(run.json), /TrustRefused|Read-only file system|EROFS|EACCES|not writable/, 'the inner tug trust did not record trust');
  t.false(existsSync(trustJson), 'nothing recorded in the user config');
  t.is((await tug(repo.root, ['trust', '--status', '--json'], { env })).json.trust, 'untrusted');
  await cleanup();
});

test('under a tug MCP server or daemon (an ancestor process), trust is refused whatever the terminal says', (t) => {
  const caller = (ancestors: string[][]) => ({ env: {}, stdinIsTTY: true, ancestors: () => ancestors });
  t.regex(trustRefusal(true, caller([['bash'], ['node', '/opt/tug/bin/tug', 'mcp']]))!, /tug server/);
  t.regex(trustRefusal(true, caller([['node', '--expose-gc', '/opt/tug/bin/tug', 'daemon', 'run', '--warm-up={}']]))!, /tug server/);
  t.is(trustRefusal(false, caller([['bash'], ['sshd']])), null, 'a person on a terminal');
  t.is(trustRefusal(true, caller([['node', '/opt/tug/bin/tug', 'rename', 'mcp']])), null, 'a word in an ordinary command is no server');
});
