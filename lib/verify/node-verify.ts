// The Node side of verify(): syntax, type check and tests for a change that touches TypeScript/JavaScript, with the user's installed packages mirrored into the sandbox and the isolation audited before anything of the project runs.
import path from 'node:path';
import { auditNodeIsolation, mirrorNodeModules, nodePathEnv } from './node-modules.js';
import { checkScriptSyntax, coveringConfigs, nodeTestScripts, parseTscOutput, readConfigs, scriptEnv, tscArgv } from './node-checks.js';
import { judgeAgainstBase, onBase, removeNewFiles, untrackedFiles } from './node-baseline.js';
import type { CheckResult } from './run-check.js';
import type { UserRepository } from './user-checkout.js';
import { isScriptFile } from '../typescript/files.js';

export interface NodeVerifyInput {
  cwd: string;
  changedFiles: readonly string[];
  /** Files of the change that are present in the sandbox (a deleted file has nothing to parse). */
  present: readonly string[];
  user: UserRepository | null;
  baseEnv: Record<string, string>;
  /**
   * The sandbox's HEAD is the change's base (a change being verified, not a snapshot): a failing `tsc` is run on the
   * base too, and a failure the base has as well is not blamed on the change (node-baseline.ts).
   */
  baseIsHead?: boolean;
  /** Runs a project command confined, in `cwd` with extra variables. */
  run: (name: string, argv: string[], cwd: string, env: Record<string, string>) => Promise<CheckResult>;
}

export interface NodeVerifier {
  syntax(): Promise<CheckResult>;
  /** Whether a package around the change has a `test` script. */
  hasTests(): Promise<boolean>;
  /** Mirrors node_modules and audits isolation (refusing with VerificationNotIsolated); once. */
  prepare(): Promise<void>;
  tests(): Promise<CheckResult[]>;
  /**
   * `tsc` per covering config. With tsconfigOnly (the `tests` level), a jsconfig.json is left out (an editor's config,
   * not a build) and no config means no check rather than a skipped one.
   */
  typecheck(options?: { tsconfigOnly?: boolean }): Promise<CheckResult[]>;
}

export function nodeVerifier(input: NodeVerifyInput): NodeVerifier {
  const { cwd, user } = input;
  let prepared: Promise<void> | undefined;
  let configs: Promise<string[]> | undefined;
  const covering = () => (configs ??= coveringConfigs(cwd, input.changedFiles));
  const env = () => nodePathEnv(input.baseEnv, cwd, user);
  return {
    syntax: () => checkScriptSyntax(cwd, input.present.filter(isScriptFile)),
    hasTests: async () => (await nodeTestScripts(cwd, input.changedFiles)).length > 0,
    prepare: () =>
      (prepared ??= (async () => {
        await mirrorNodeModules(cwd, user);
        await auditNodeIsolation(cwd, user, await readConfigs(cwd, await covering()));
      })()),
    async tests() {
      await this.prepare();
      const results: CheckResult[] = [];
      const extra = await env();
      for (const { dir, script } of await nodeTestScripts(cwd, input.changedFiles)) {
        const result = await input.run('tests', ['sh', '-c', script], path.join(cwd, dir), { ...pick(extra, 'NODE_PATH'), ...scriptEnv(cwd, dir, input.baseEnv) });
        results.push({ ...result, command: ['npm', 'test', ...(dir ? [`--prefix=${dir}`] : [])] });
        if (result.status === 'failed') break;
      }
      return results;
    },
    async typecheck(options) {
      const list = (await covering()).filter((config) => !options?.tsconfigOnly || path.posix.basename(config) === 'tsconfig.json');
      if (list.length === 0 && options?.tsconfigOnly) return [];
      await this.prepare();
      if (list.length === 0) return [{ name: 'typecheck', status: 'skipped', reason: 'no tsconfig.json or jsconfig.json covers the changed files', duration_ms: 0 }];
      const extra = await env();
      let untracked: Promise<Set<string>> | undefined;
      const tsc = async (config: string) => {
        const argv = tscArgv(cwd, config, (await readConfigs(cwd, [config])).get(config));
        const build = argv.includes('-b');
        const before = build ? await (untracked ??= untrackedFiles(cwd)) : null;
        const result = await input.run('typecheck', argv, cwd, pick(extra, 'NODE_PATH'));
        // Build mode writes its outputs (declarations, .tsbuildinfo) beside the sources: left there, they would be the
        // next check's inputs (another config's, or the same one's on the base), which then fails for what tsc wrote.
        if (before) await removeNewFiles(cwd, before);
        const errors = parseTscOutput(result.output ?? '', cwd);
        const command = ['tsc', ...argv.slice(2).map((a) => (a.startsWith(cwd) ? path.relative(cwd, a) || '.' : a))];
        return { ...result, command, ...(errors.length > 0 ? { errors } : {}) };
      };
      // Each config's run on the change and on the base, once: a workspace's root config may be asked for several.
      const runs = new Map<string, Promise<CheckResult>>();
      const baseRuns = new Map<string, Promise<CheckResult | null>>();
      const once = <T>(memo: Map<string, Promise<T>>, config: string, run: () => Promise<T>) => memo.get(config) ?? memo.set(config, run()).get(config)!;
      const onChange = (config: string) => once(runs, config, () => tsc(config));
      const onTheBase = (config: string) => once(baseRuns, config, () => onBase(cwd, () => tsc(config)));
      const results: CheckResult[] = [];
      for (const config of list) {
        const result = await onChange(config);
        results.push(result.status === 'failed' && input.baseIsHead ? await judgeAgainstBase(cwd, config, result, onChange, onTheBase) : result);
      }
      return results;
    },
  };
}

function pick(env: Record<string, string>, key: string): Record<string, string> {
  return env[key] === undefined ? {} : { [key]: env[key] };
}
