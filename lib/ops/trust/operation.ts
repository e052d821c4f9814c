// `tug trust`: the user lets a repository's own settings that run programs or widen the environment take effect (or stops that).
import path from 'node:path';
import { z } from 'zod';
import { TugError } from '../../core/errors.js';
import { SCHEMA_VERSION } from '../../core/schemas.js';
import { discoverRepo } from '../../git/repo.js';
import { assertPerson } from '../../trust/person.js';
import { setTrust, trustFile, trustState } from '../../trust/store.js';
import { repositorySettings } from '../workspace/config.js';
import { defineOperation } from '../operation.js';

export const trustInput = z
  .object({
    workspace: z.string().optional().describe('Directory inside the git working tree whose settings to trust (default: the current directory).'),
    revoke: z.boolean().optional().describe('Forget the trust of this repository.'),
    status: z.boolean().optional().describe('Only show whether the repository is trusted and which settings need it.'),
    confirm: z.boolean().optional().describe('Record trust although stdin is not a terminal (a script the user runs). CLI only: no tool or MCP call can pass it.'),
  })
  .strict();

export const TrustResponse = z.object({
  status: z.literal('ok'),
  schema_version: z.literal(SCHEMA_VERSION),
  action: z.enum(['trusted', 'revoked', 'status']),
  repository: z.string(),
  trust: z.enum(['trusted', 'changed', 'untrusted']).describe('changed: trusted once, but a gated setting changed since.'),
  settings: z.array(z.object({ source: z.string(), key: z.string(), value: z.unknown() })).describe('The settings that take effect only in a trusted repository.'),
  settings_hash: z.string(),
  trust_file: z.string(),
});

/**
 * Not in the registry's `operations`: trusting is the user's decision, so no agent tool or MCP client can make it.
 * The CLI serves it alone.
 */
export const trustOperation = defineOperation({
  name: 'trust',
  tool: 'tug_trust',
  description:
    "Trust the repository: its tug.toml / [tool.tug] settings that run a program or widen the environment (python_path, test_command, typecheck_command, allow_env, verify = tests|typecheck) take effect, and the default verification runs the project's tests. Recorded with a hash of those settings in the user's config dir; a changed setting needs trust again.",
  input: trustInput,
  output: TrustResponse,
  annotations: { readOnly: false, destructive: false, idempotent: true },
  async execute(input) {
    if (input.revoke && input.status) {
      throw new TugError('InvalidArgument', '--revoke and --status cannot be combined', { details: { argument: 'revoke', reason: 'conflicts with status' } });
    }
    // Showing and revoking need no person; recording trust does (lib/trust/person.ts).
    if (!input.status && !input.revoke) assertPerson(Boolean(input.confirm));
    const repo = await discoverRepo(input.workspace ?? process.cwd());
    const { directory, settings, hash } = await repositorySettings(repo.root);
    if (!input.status) await setTrust(directory, input.revoke ? null : hash);
    return TrustResponse.parse({
      status: 'ok',
      schema_version: SCHEMA_VERSION,
      action: input.revoke ? 'revoked' : input.status ? 'status' : 'trusted',
      repository: directory,
      trust: await trustState(directory, hash),
      settings,
      settings_hash: hash,
      trust_file: trustFile(),
    });
  },
});
