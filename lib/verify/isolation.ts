// How run_command is confined on this machine: bubblewrap (read-only repository, no network, own PID namespace) where it works, else unshare, else none.
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
    if (cap !== 'none' && cap !== 'unshare' && (await works(['bwrap', ...bwrapArgs([], false), 'true']))) return 'bwrap';
    if (cap !== 'none' && (await works(['unshare', ...UNSHARE_ARGS, 'true']))) return 'unshare';
    return 'none';
  })();
  return probe;
}

const UNSHARE_ARGS = ['--pid', '--fork', '--kill-child', '--mount-proc'];

/**
 * The whole file system as it is, then the user's repository directories read-only on top, a fresh /proc for the new PID
 * namespace, and no network. `--die-with-parent`: killing bwrap at the timeout takes the namespace and all in it along.
 */
function bwrapArgs(readOnly: readonly string[], network: boolean): string[] {
  return [
    '--die-with-parent',
    '--new-session',
    '--unshare-pid',
    ...(network ? [] : ['--unshare-net']),
    '--bind', '/', '/',
    '--dev-bind', '/dev', '/dev',
    '--proc', '/proc',
    ...readOnly.flatMap((dir) => ['--ro-bind', dir, dir]),
  ];
}

/** argv that runs `command` with `sh -c` under the given confinement, and what that confinement provides. */
export function confine(confinement: Confinement, command: string, readOnly: readonly string[]): { argv: string[]; isolation: Isolation } {
  const shell = ['sh', '-c', command];
  if (confinement === 'bwrap') {
    return {
      argv: ['bwrap', ...bwrapArgs(readOnly, false), ...shell],
      isolation: { checkout: 'separate-git-dir', confinement, repository_read_only: true, network: false, process_tree: 'pid-namespace' },
    };
  }
  if (confinement === 'unshare') {
    return {
      argv: ['unshare', ...UNSHARE_ARGS, ...shell],
      isolation: { checkout: 'separate-git-dir', confinement, repository_read_only: false, network: true, process_tree: 'pid-namespace' },
    };
  }
  return { argv: shell, isolation: { checkout: 'separate-git-dir', confinement, repository_read_only: false, network: true, process_tree: 'process-walk' } };
}
