// Peak resident memory of a command and every process it starts (node + its Python workers), sampled from /proc.
import { timed } from './lib.mjs';

/**
 * A small Python sampler runs the command and adds up the resident set of the whole process tree every 5 ms
 * (Linux /proc only). The sampler is a separate process, so its own memory is not counted.
 */
const SAMPLER = `
import json, os, subprocess, sys, time
page = os.sysconf("SC_PAGE_SIZE")
def tree(pid):
    """(pid, parent pid) of the process and its descendants."""
    out = [(pid, None)]
    for p, _ in out:
        for t in os.listdir(f"/proc/{p}/task") if os.path.isdir(f"/proc/{p}/task") else []:
            try:
                with open(f"/proc/{p}/task/{t}/children") as f:
                    out.extend((int(c), p) for c in f.read().split())
            except OSError:
                pass
    return out
def cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read()
    except OSError:
        return None
def private(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            return sum(int(line.split()[1]) * 1024 for line in f if line.startswith(("Private_Clean:", "Private_Dirty:")))
    except (OSError, IndexError, ValueError):
        return 0
def rss(pid, parent):
    # A child still running its parent's command line is a fork: not yet exec'd (spawn forks the Node process first),
    # or the Python worker's copy that builds half a batch. Its pages are the parent's, shared, until it writes them, and
    # would be counted twice (a 170 MB Node showed a 42 MB twin): only its private pages count.
    if parent is not None and cmdline(pid) == cmdline(parent):
        return private(pid)
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * page
    except (OSError, IndexError, ValueError):
        return 0
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
peak = 0
while child.poll() is None:
    try:
        peak = max(peak, sum(rss(p, parent) for p, parent in tree(child.pid)))
    except OSError:
        pass
    time.sleep(0.005)
print(json.dumps({"peak_bytes": peak, "status": child.returncode, "stderr": child.stderr.read().decode()[-2000:]}))
`;

/** Peak RSS in bytes of `command args` and its descendants; throws when the command fails. */
export function peakRss(command, args, options = {}) {
  const run = JSON.parse(timed('python3', ['-c', SAMPLER, command, ...args], options).stdout);
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${run.status}\n${run.stderr}`);
  return run.peak_bytes;
}

export const mb = (bytes) => `${Math.round(bytes / (1024 * 1024))} MB`;
