// How run_command and verification's project commands are confined on this machine: bubblewrap (read-only repository, no tug config, no network, own PID namespace) where it works, else unshare, else none.
import { loadExeca } from './execa.js';

export type Confinement = 'bwrap' | 'unshare' | 'none';

export interface Isolation {
  /** The command's checkout has its own git directory: the user's refs, stash and config are out of its reach. */
  checkout: 'separate-git-dir';
  confinement: Confinement;
  /** True when the user's repository (working tree and git dir) is mounted read-only for the command. */
  repository_read_only: boolean;
  /** False when the command runs without network access. */
  network: boolean;
  /** What ends the command's processes at the timeout. */
  process_tree: 'pid-namespace' | 'process-walk';
}

/** What a confined command may not write, must be able to write, and must not see. */
export interface Mounts {
  /** The user's repository: working trees and git dir (the sandbox's alternate points there). */
  readOnly: readonly string[];
  /** Directories inside a read-only one that the command needs to write (cargo's target dir in the session dir). */
  writable?: readonly string[];
  /** Replaced by an empty, throwaway directory: tug's config and trust store, so nothing run can plant either. */
  hidden?: readonly string[];
  network?: boolean;
}

let probe: Promise<Confinement> | undefined;

/**
 * Tries each tool for real once per process: bwrap may be installed yet unusable (no user namespaces in a container),
 * and unshare needs either root or user namespaces. `TUG_ISOLATION=none|unshare|bwrap` caps the choice (tests, debugging).
 */
export function availableConfinement(env: NodeJS.ProcessEnv = process.env): Promise<Confinement> {
  probe ??= (async () => {
    const cap = env['TUG_ISOLATION'];
    const execa = await loadExeca();
    const works = async (argv: string[]) => (await execa(argv[0]!, argv.slice(1), { reject: false, stdin: 'ignore', timeout: 10_000 })).exitCode === 0;
    if (cap !== 'none' && cap !== 'unshare' && (await works(['bwrap', ...bwrapArgs({ readOnly: [] }), 'true']))) return 'bwrap';
    if (cap !== 'none' && (await works(['unshare', ...UNSHARE_ARGS, 'true']))) return 'unshare';
    return 'none';
  })();
  return probe;
}

const UNSHARE_ARGS = ['--pid', '--fork', '--kill-child', '--mount-proc'];

/**
 * The whole file system as it is, then the user's repository directories read-only on top, the writable exceptions
 * over those, tug's config dirs replaced by empty tmpfs, a fresh /proc for the new PID namespace, and no network. Later
 * mounts win, hence the order. `--die-with-parent`: killing bwrap at the timeout takes the namespace and all in it along.
 */
function bwrapArgs(mounts: Mounts, statusFd?: number): string[] {
  return [
    '--die-with-parent',
    // bwrap writes the namespace's first process (its pid 1, as seen from here) to this fd: see lib/verify/pid-namespace.ts.
    ...(statusFd === undefined ? [] : ['--json-status-fd', String(statusFd)]),
    '--new-session',
    '--unshare-pid',
    ...(mounts.network ? [] : ['--unshare-net']),
    '--bind', '/', '/',
    '--dev-bind', '/dev', '/dev',
    '--proc', '/proc',
    ...mounts.readOnly.flatMap((dir) => ['--ro-bind', dir, dir]),
    ...(mounts.writable ?? []).flatMap((dir) => ['--bind', dir, dir]),
    ...(mounts.hidden ?? []).flatMap((dir) => ['--tmpfs', dir]),
  ];
}

/**
 * argv that runs `argv` under the given confinement, and what that confinement provides. `statusFd`: under bwrap, the
 * fd (one the caller opens for the child) where bwrap reports its namespace's first process.
 */
export function confineArgv(confinement: Confinement, argv: readonly string[], mounts: Mounts, statusFd?: number): { argv: string[]; isolation: Isolation } {
  const network = mounts.network ?? false;
  if (confinement === 'bwrap') {
    return {
      argv: ['bwrap', ...bwrapArgs(mounts, statusFd), '--', ...argv],
      isolation: { checkout: 'separate-git-dir', confinement, repository_read_only: true, network, process_tree: 'pid-namespace' },
    };
  }
  if (confinement === 'unshare') {
    return {
      argv: ['unshare', ...UNSHARE_ARGS, '--', ...argv],
      isolation: { checkout: 'separate-git-dir', confinement, repository_read_only: false, network: true, process_tree: 'pid-namespace' },
    };
  }
  return { argv: [...argv], isolation: { checkout: 'separate-git-dir', confinement, repository_read_only: false, network: true, process_tree: 'process-walk' } };
}

/** argv that runs `command` with `sh -c` under the given confinement (run_command). */
export function confine(confinement: Confinement, command: string, mounts: Mounts): { argv: string[]; isolation: Isolation } {
  return confineArgv(confinement, ['sh', '-c', command], mounts);
}
