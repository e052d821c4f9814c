// The worker pauses Python's cycle collector while it builds a facts_batch reply (a quarter of the batch's CPU went to
// collections that found nothing) and must always turn it back on, even when a file fails or the batch raises.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { resolvePython } from '../lib/python/interpreter.js';
import { WORKER_SCRIPT } from '../lib/python/worker.js';

const python = (await resolvePython()).path;

const PROBE = `
import gc, json, sys
sys.path.insert(0, sys.argv[1])
from tugworker import protocol
seen = []
real = protocol.extract_facts
def probe(content):
    seen.append(gc.isenabled())
    if content == "boom":
        raise RuntimeError("boom")
    return real(content)
protocol.extract_facts = probe
files = [{"path": "a.py", "content": "x = 1\\n"}, {"path": "b.py", "content": "def (:\\n"}]
reply = protocol.facts_batch_reply(1, files)
after = gc.isenabled()
try:
    protocol.facts_batch_reply(2, [{"path": "c.py", "content": "boom"}])
except RuntimeError:
    pass
after_raise = gc.isenabled()
gc.disable()
protocol.facts_batch_reply(3, files)
stays_off = not gc.isenabled()
gc.enable()
print(json.dumps({"seen": seen, "after": after, "after_raise": after_raise, "stays_off": stays_off, "ok": [r["ok"] for r in json.loads(reply)["result"]["results"]]}))
`;

test('the cycle collector is off while facts are built and back on afterwards, also after a failure', (t) => {
  const out = JSON.parse(execFileSync(python, ['-c', PROBE, path.dirname(WORKER_SCRIPT)], { encoding: 'utf8' }));
  t.deepEqual(out.seen, [false, false, false, false, false]);
  t.true(out.after);
  t.true(out.after_raise);
  t.true(out.stays_off);
  t.deepEqual(out.ok, [true, false]);
});

// With the collector paused, a file's objects must go by their reference counts: a cycle (the name lookup was a
// closure calling itself) held each file's walker until the next collection (docs/PERFORMANCE.md, issue 33, pyfacts helper).
const CYCLES = `
import gc, json, sys
sys.path.insert(0, sys.argv[1])
from tugworker.facts import extract_facts
source = open(sys.argv[2], encoding="utf-8").read()
gc.disable()
gc.collect()
extract_facts(source)
print(json.dumps(gc.collect()))
`;

test("a file's facts leave no reference cycle behind", (t) => {
  const source = path.join(path.dirname(WORKER_SCRIPT), 'tugworker', 'scopes.py');
  t.is(JSON.parse(execFileSync(python, ['-c', CYCLES, path.dirname(WORKER_SCRIPT), source], { encoding: 'utf8' })), 0);
});
