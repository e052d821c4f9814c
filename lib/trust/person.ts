// Only a person trusts a repository: `tug trust` records trust from a terminal or with an explicit --confirm, and never
// from inside a tug sandbox (a verification or run_command an agent started) or under a tug MCP server or daemon.
import { readFileSync } from 'node:fs';
import { TugError } from '../core/errors.js';

/** What tells a process where it runs. Injected by tests; by default this process's. */
export interface Caller {
  env: NodeJS.ProcessEnv;
  stdinIsTTY: boolean;
  /** The command lines of this process's ancestors, nearest first (empty where /proc cannot tell). */
  ancestors: () => string[][];
}

export function thisCaller(): Caller {
  return { env: process.env, stdinIsTTY: Boolean(process.stdin.isTTY), ancestors: () => ancestorCommands(process.ppid) };
}

/** Why this caller may not record trust, or null. `confirm` is the CLI's --confirm; no tool or MCP call has it. */
export function trustRefusal(confirm: boolean, caller: Caller = thisCaller()): string | null {
  // TUG_RUN_ID marks every command tug runs (verification, run_command); TUG_SANDBOX every sandbox environment.
  if (caller.env['TUG_RUN_ID'] || caller.env['TUG_SANDBOX']) return 'it runs inside a tug sandbox (a command tug ran for a verification or an agent)';
  const server = caller.ancestors().find(isTugServer);
  if (server) return `it runs under a tug server (${server.slice(-2).join(' ')}), that is for an agent`;
  if (!caller.stdinIsTTY && !confirm) return 'stdin is not a terminal and --confirm was not given';
  return null;
}

export function assertPerson(confirm: boolean, caller: Caller = thisCaller()): void {
  const reason = trustRefusal(confirm, caller);
  if (reason) {
    throw new TugError('TrustRefused', `only a person can trust a repository: ${reason}`, {
      details: { reason, remedy: 'run `tug trust` yourself in a terminal (or `tug trust --confirm` from a script you run); `tug trust --status` shows what it would trust' },
    });
  }
}

/** `tug mcp` or `tug daemon run`: a process that serves an agent's calls. */
function isTugServer(argv: string[]): boolean {
  const tug = argv.findIndex((arg) => /(^|\/)(tug|git-tug|tug\.js|main\.c?js|launch\.cjs)$/.test(arg));
  if (tug === -1) return false;
  const rest = argv.slice(tug + 1).filter((arg) => !arg.startsWith('-'));
  return rest[0] === 'mcp' || (rest[0] === 'daemon' && rest[1] === 'run');
}

/** Command lines of the ancestors from `pid` up, read from /proc (Linux); stops at init or at anything unreadable. */
function ancestorCommands(pid: number): string[][] {
  const out: string[][] = [];
  for (let current = pid, hops = 0; current > 1 && hops < 64; hops++) {
    try {
      out.push(readFileSync(`/proc/${current}/cmdline`, 'utf8').split('\0').filter(Boolean));
      const stat = readFileSync(`/proc/${current}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: the parent pid is the second field after the last ')'.
      current = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      break;
    }
  }
  return out;
}
