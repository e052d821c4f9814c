// Commands tug runs (run_command, verification) get an allowlisted environment: common secret names never reach them, also through the daemon.
import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sandboxEnv } from '../../lib/verify/sandbox-env.js';
import { tug } from '../helpers/cli.js';
import { makeRepo } from '../helpers/repo.js';
import { call } from '../helpers/tools.js';

// A user config dir of our own, so nothing here reads or writes the real one.
process.env['XDG_CONFIG_HOME'] = await mkdtemp(path.join(os.tmpdir(), 'tug-env-config-'));

/** Variables that hold credentials in common setups; none may reach a command unless the user allows it. */
const SECRET_NAMES = [
  'DATABASE_URL', 'PGPASSWORD', 'PGPASSFILE', 'MYSQL_PWD', 'REDIS_URL', 'MONGODB_URI', 'SSH_AUTH_SOCK', 'SSH_AGENT_PID', 'GPG_AGENT_INFO',
  'GITHUB_TOKEN', 'GITHUB_PAT', 'GH_TOKEN', 'GITLAB_TOKEN', 'CI_JOB_TOKEN', 'BITBUCKET_APP_PASSWORD', 'npm_config__authToken', 'NPM_TOKEN',
  'NODE_AUTH_TOKEN', 'YARN_NPM_AUTH_TOKEN', 'PYPI_TOKEN', 'TWINE_PASSWORD', 'TWINE_USERNAME', 'POETRY_PYPI_TOKEN_PYPI', 'UV_INDEX_URL',
  'PIP_INDEX_URL', 'CARGO_REGISTRY_TOKEN', 'CARGO_REGISTRIES_MY_TOKEN', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN',
  'AZURE_CLIENT_SECRET', 'AZURE_STORAGE_CONNECTION_STRING', 'ARM_CLIENT_SECRET', 'GOOGLE_APPLICATION_CREDENTIALS', 'GCLOUD_KEYFILE_JSON',
  'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'HF_TOKEN', 'HUGGING_FACE_HUB_TOKEN', 'COHERE_API_KEY', 'MISTRAL_API_KEY', 'STRIPE_SECRET_KEY',
  'STRIPE_API_KEY', 'TWILIO_AUTH_TOKEN', 'SENDGRID_API_KEY', 'SLACK_BOT_TOKEN', 'SLACK_WEBHOOK_URL', 'DISCORD_TOKEN', 'SENTRY_DSN',
  'SENTRY_AUTH_TOKEN', 'DATADOG_API_KEY', 'DD_API_KEY', 'NEW_RELIC_LICENSE_KEY', 'HEROKU_API_KEY', 'VERCEL_TOKEN', 'NETLIFY_AUTH_TOKEN',
  'CLOUDFLARE_API_TOKEN', 'DIGITALOCEAN_ACCESS_TOKEN', 'DOCKER_PASSWORD', 'DOCKER_AUTH_CONFIG', 'KUBECONFIG', 'VAULT_TOKEN', 'VAULT_ADDR',
  'CONSUL_HTTP_TOKEN', 'JWT_SECRET', 'SECRET_KEY_BASE', 'DJANGO_SECRET_KEY', 'FLASK_SECRET_KEY', 'SESSION_SECRET', 'ENCRYPTION_KEY',
  'PRIVATE_KEY', 'SMTP_PASSWORD', 'LDAP_BIND_PASSWORD', 'HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'NETRC', 'CODECOV_TOKEN', 'SONAR_TOKEN',
  'SNYK_TOKEN', 'FIREBASE_TOKEN', 'SUPABASE_SERVICE_ROLE_KEY', 'PLANETSCALE_PASSWORD', 'PYTHON_KEYRING_PASSWORD', 'LC_SECRET_TOKEN',
  // Credential-like names inside the families allowed by default (PYTHON*, LC_*, CARGO_*).
  'PYTHON_PWD', 'PYTHON_APIKEY', 'LC_APIKEY', 'PYTHON_DB_PASSPHRASE', 'CARGO_HTTP_COOKIE', 'PYTHONPASSWD',
];

const KEPT = { PATH: process.env['PATH']!, HOME: process.env['HOME'] ?? '/root', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TERM: 'dumb', PYTHONPATH: '/x', CARGO_HOME: '/c', RUSTUP_HOME: '/r' };

function withSecrets(): Record<string, string> {
  return Object.fromEntries(SECRET_NAMES.map((name) => [name, `leaked-${name}`]));
}

function leaks(output: string): string[] {
  return SECRET_NAMES.filter((name) => output.includes(`leaked-${name}`));
}

test('the list holds at least 60 secret names, and the allowlist drops every one', (t) => {
  t.true(SECRET_NAMES.length >= 60, String(SECRET_NAMES.length));
  const { env, dropped } = sandboxEnv({ ...withSecrets(), ...KEPT }, []);
  t.deepEqual(leaks(JSON.stringify(env)), []);
  t.deepEqual(dropped, [...SECRET_NAMES].sort());
  for (const [name, value] of Object.entries(KEPT)) t.is(env[name], value, name);
  t.is(env['TUG_SANDBOX'], '1');
  t.is(sandboxEnv({ GITHUB_TOKEN: 'x', OTHER: 'y' }, ['GITHUB_*']).env['GITHUB_TOKEN'], 'x', 'an explicit allow_env entry lets a name through');
});

test('run_command sees none of the secret names, and keeps what builds need', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'a\n' });
  const saved = { ...process.env };
  Object.assign(process.env, withSecrets(), { LC_ALL: 'C.UTF-8', CARGO_HOME: '/c' });
  try {
    const out = await call(repo, 'run_command', { command: 'env' });
    t.is(out.exit_code, 0, JSON.stringify(out));
    t.deepEqual(leaks(out.stdout), []);
    t.regex(out.stdout, /^PATH=/m);
    t.regex(out.stdout, /^LC_ALL=C\.UTF-8$/m);
    t.regex(out.stdout, /^CARGO_HOME=\/c$/m);
  } finally {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  }
  await repo.cleanup();
});

const PRINT_ENV = JSON.stringify(['sh', '-c', 'env; exit 1']);

test('verification commands see none of the secret names', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const run = await tug(repo.root, ['verify', '--verify', 'tests', '--test-command', PRINT_ENV], { env: { ...withSecrets(), XDG_CONFIG_HOME: process.env['XDG_CONFIG_HOME']! } });
  t.is(run.json?.error?.code, 'VerificationFailed', run.stdout + run.stderr);
  const tests = run.json.error.details.verification.checks.find((c: { name: string }) => c.name === 'tests');
  t.regex(tests.output, /^PATH=/m, 'the command ran and printed its environment');
  t.deepEqual(leaks(tests.output), []);
  await repo.cleanup();
});

test("the daemon runs each request with the client's environment, not its own", async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const config = process.env['XDG_CONFIG_HOME']!;
  // A private runtime dir: this test's daemon is its own, never the user's (one daemon per user).
  const runtime = await mkdtemp(path.join(os.tmpdir(), 'tug-rt-'));
  const env = { TUG_LOCK_TIMEOUT_MS: '2000', XDG_CONFIG_HOME: config, XDG_RUNTIME_DIR: runtime };
  const start = await tug(repo.root, ['daemon', 'start'], { env: { ...env, LC_TUG_PROBE: 'daemon', GITHUB_PAT: 'leaked-daemon' } });
  t.is(start.exitCode, 0, start.stdout + start.stderr);
  try {
    const run = await tug(repo.root, ['verify', '--verify', 'tests', '--test-command', PRINT_ENV], { env: { ...env, LC_TUG_PROBE: 'client' } });
    t.is(run.json?.error?.code, 'VerificationFailed', run.stdout + run.stderr);
    const output = run.json.error.details.verification.checks.find((c: { name: string }) => c.name === 'tests').output as string;
    t.regex(output, /^LC_TUG_PROBE=client$/m);
    t.false(output.includes('leaked-daemon'));
    t.is((await tug(repo.root, ['daemon', 'status'], { env })).json.daemon.requests, 1, 'the verify call was served by the daemon');
  } finally {
    await tug(repo.root, ['daemon', 'stop'], { env });
    await rm(runtime, { recursive: true, force: true });
  }
  await repo.cleanup();
});
