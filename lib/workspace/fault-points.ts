// Test-only hooks at named steps of the journaled writes, so tests can kill or pause tug exactly there. Unset in normal use.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * TUG_FAULT_INJECT=<point> kills tug with SIGKILL when it reaches that point;
 * TUG_FAULT_INJECT=<point>:pause writes `<point>.reached` into TUG_FAULT_DIR and waits until `<point>.go` appears there;
 * Tests only: nothing in tug sets these, and they are documented as test hooks, not options.
 */
export async function faultPoint(name: string): Promise<void> {
  const spec = process.env['TUG_FAULT_INJECT'];
  if (!spec) return;
  const [point, action = 'kill'] = spec.split(':');
  if (point !== name) return;
  if (action === 'kill') process.kill(process.pid, 'SIGKILL');
  if (action === 'pause') {
    const dir = process.env['TUG_FAULT_DIR'] ?? '.';
    writeFileSync(path.join(dir, `${name}.reached`), String(process.pid));
    const deadline = Date.now() + 60_000;
    while (!existsSync(path.join(dir, `${name}.go`)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
