// With a spare core the worker builds about half of a large facts batch in a forked copy of itself: the reply must be
// the one a single process writes, byte for byte, also when the copy fails, and no copy may be left behind.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { resolvePython } from '../lib/python/interpreter.js';
import { WORKER_SCRIPT } from '../lib/python/worker.js';

const python = (await resolvePython()).path;

const PROBE = `
import hashlib, json, os, sys
sys.path.insert(0, sys.argv[1])
from tugworker import protocol

def module(i, size):
    body = ["import os", "", "class Thing%d:" % i, "    def run(self, path):", "        return os.path.join(path, 'x')", ""]
    n = 0
    while sum(len(line) + 1 for line in body) < size:
        body += ["def f%d_%d(a, b=1, *c, **d):" % (i, n), "    x = [y for y in range(a) if y % 2]  # a comment", "    return Thing%d().run(str(x)) + '%d'" % (i, n), ""]
        n += 1
    return "\\n".join(body) + "\\n"

files = [{"path": "m%d.py" % i, "content": module(i, size)} for i, size in enumerate([40000, 9000, 30000, 25000, 12000])]
files.insert(2, {"path": "broken.py", "content": "def (:\\n"})
parent = os.getpid()
forks = []
real_fork = os.fork
def counting_fork():
    pid = real_fork()
    if pid:
        forks.append(pid)
    return pid
os.fork = counting_fork

shared = protocol.facts_batch_reply(1, files)
protocol._cores = 1
alone = protocol.facts_batch_reply(1, files)
protocol._cores = None

# A copy that fails (here: every file it builds raises) leaves the batch to this process.
real_entry = protocol._entry
def failing_in_copy(f):
    if os.getpid() != parent:
        raise RuntimeError("the copy fails")
    return real_entry(f)
protocol._entry = failing_in_copy
after_failure = protocol.facts_batch_reply(1, files)
protocol._entry = real_entry

try:
    os.waitpid(-1, os.WNOHANG)
    left = True
except ChildProcessError:
    left = False
digest = lambda text: hashlib.sha1(text.encode()).hexdigest()
print(json.dumps({"shared": digest(shared), "alone": digest(alone), "after_failure": digest(after_failure), "forks": len(forks), "left": left, "ok": [r["ok"] for r in json.loads(shared)["result"]["results"]]}))
`;

test('a shared batch replies byte for byte as one process does, also when the forked copy fails, and leaves no process', (t) => {
  const out = JSON.parse(execFileSync(python, ['-I', '-S', '-c', PROBE, path.dirname(WORKER_SCRIPT)], { encoding: 'utf8' }));
  t.deepEqual(out.ok, [true, true, false, true, true, true]);
  t.is(out.shared, out.alone);
  t.is(out.after_failure, out.alone);
  t.false(out.left, 'every forked copy was waited for');
  if (process.platform === 'linux' && os.availableParallelism() > 1) t.is(out.forks, 2, 'one copy per shared batch (the one-process reply made none)');
});
