// Golden files: compare with golden/<name>, or rewrite them when TUG_UPDATE_GOLDEN=1.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExecutionContext } from 'ava';

export const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const UPDATE = process.env['TUG_UPDATE_GOLDEN'] === '1';

export async function expectGolden(t: ExecutionContext, name: string, actual: string): Promise<void> {
  const file = path.join(PROJECT_ROOT, 'golden', name);
  if (UPDATE) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, actual);
    t.log(`updated golden/${name}`);
    t.pass();
    return;
  }
  const expected = await readFile(file, 'utf8').catch(() => null);
  if (expected === null) {
    t.fail(`golden/${name} is missing; run with TUG_UPDATE_GOLDEN=1 to create it`);
    return;
  }
  t.is(actual, expected, `golden/${name} differs; if the change is intended, rerun with TUG_UPDATE_GOLDEN=1`);
}
