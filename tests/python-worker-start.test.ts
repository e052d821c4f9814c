// The worker imports `traceback` (with linecache and tokenize) only when a bug needs its text: ~3 ms of every worker's
// start (issue 33 step 18). A bug's answer still carries the traceback.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { TugError } from '../lib/core/errors.js';
import { resolvePython } from '../lib/python/interpreter.js';
import { PythonWorker, WORKER_SCRIPT } from '../lib/python/worker.js';

const python = (await resolvePython()).path;

const PROBE = `
import json, sys
sys.path.insert(0, sys.argv[1])
from tugworker import protocol
protocol.facts_batch_reply(1, [{"path": "a.py", "content": "import os\\nx = os.sep  # c\\n"}])
print(json.dumps(sorted(m for m in ("traceback", "linecache", "tokenize") if m in sys.modules)))
`;

test('the worker module and a facts batch leave traceback, linecache and tokenize unimported', (t) => {
  const out = execFileSync(python, ['-I', '-S', '-c', PROBE, path.dirname(WORKER_SCRIPT)], { encoding: 'utf8' });
  t.deepEqual(JSON.parse(out), []);
});

test('a bug in the worker is still an InternalError carrying its traceback', async (t) => {
  const worker = await PythonWorker.start({ python, script: WORKER_SCRIPT });
  try {
    const error = await t.throwsAsync(worker.request('facts', { path: 'a.py' }));
    t.true(error instanceof TugError);
    t.is((error as TugError).code, 'InternalError');
    const traceback = (error as TugError).details?.traceback;
    t.is(typeof traceback, 'string');
    t.regex(traceback as string, /KeyError: 'content'/);
  } finally {
    await worker.shutdown();
  }
});
