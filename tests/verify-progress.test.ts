// A running check reports life every few seconds, so an MCP client with resetTimeoutOnProgress keeps a long verification alive.
import test from 'ava';
import { runCheck, PROGRESS_INTERVAL_MS, type CheckProgress } from '../lib/verify/run-check.js';
import { sandboxEnv, callerEnvironment } from '../lib/verify/sandbox-env.js';

test('runCheck calls onProgress on a timer with the elapsed seconds, and pytest-style percentages as they appear', async (t) => {
  const seen: CheckProgress[] = [];
  const script = 'import sys, time\nfor p in (25, 50):\n    print(".. [ %d%%]" % p, flush=True)\n    time.sleep(1)\ntime.sleep(4)\n';
  const result = await runCheck({
    name: 'tests',
    argv: ['python3', '-c', script],
    cwd: process.cwd(),
    timeoutMs: 60_000,
    baseEnv: sandboxEnv(callerEnvironment(), []).env,
    onProgress: (p) => seen.push(p),
  });
  t.is(result.status, 'passed', result.output);
  const timed = seen.filter((p) => p.elapsed_s >= PROGRESS_INTERVAL_MS / 1000);
  t.true(timed.length >= 2, JSON.stringify(seen));
  t.true(seen.every((p) => p.check === 'tests'));
  t.deepEqual([...new Set(seen.flatMap((p) => (p.percent === undefined ? [] : [p.percent])))], [25, 50]);
  const count = seen.length;
  await new Promise((resolve) => setTimeout(resolve, PROGRESS_INTERVAL_MS * 2));
  t.is(seen.length, count, 'no progress after the check ended');
});
