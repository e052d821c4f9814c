// Rust renames on the fixture crates through the real CLI, rust-analyzer, cargo and git, compared with golden/rust/<case>.
// The cases of one fixture crate share one copy behind one daemon (helpers/warm-fixture.ts): rust-analyzer indexes each
// crate once, not once per case, and the daemon prints what a cold run prints. Cold `tug rename` on a Rust crate stays
// covered by rust-sound, rust-adapter and replay-rust.
import test from 'ava';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from './helpers/golden.js';
import { checkRenameCaseIn, type RenameCase } from './helpers/rename-cases.js';
import { requireRustToolchain } from './helpers/toolchains.js';
import { warmFixtures } from './helpers/warm-fixture.js';

const manifest = JSON.parse(await readFile(path.join(PROJECT_ROOT, 'fixtures', 'rust', 'manifest.json'), 'utf8')) as { cases: RenameCase[] };
// Each case builds and tests the crate with cargo; a few at a time keeps a 2-core machine responsive.
let running = 0;
const waiting: Array<() => void> = [];
async function limited<T>(body: () => Promise<T>): Promise<T> {
  while (running >= 3) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await body();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

const fixtures = warmFixtures();
test.after.always(() => fixtures.stopAll());
for (const c of manifest.cases) fixtures.plan('rust', c.workspace, 1);

for (const c of manifest.cases) {
  test(`rust ${c.name}`, async (t) => {
    if (!(await requireRustToolchain(t))) return;
    await fixtures.use('rust', c.workspace, ({ repo, env }) => limited(() => checkRenameCaseIn(t, 'rust', c, repo, env)));
  });
}
