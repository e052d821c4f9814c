// Rust renames on the fixture crates through the real CLI, rust-analyzer, cargo and git, compared with golden/rust/<case>.
import test from 'ava';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from './helpers/golden.js';
import { checkRenameCase, type RenameCase } from './helpers/rename-cases.js';
import { requireRustToolchain } from './helpers/toolchains.js';

const manifest = JSON.parse(await readFile(path.join(PROJECT_ROOT, 'fixtures', 'rust', 'manifest.json'), 'utf8')) as { cases: RenameCase[] };
// Each case starts its own rust-analyzer and cargo build; a few at a time keeps a 2-core machine responsive.
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

for (const c of manifest.cases) {
  test(`rust ${c.name}`, (t) =>
    limited(async () => {
      if (await requireRustToolchain(t)) await checkRenameCase(t, 'rust', c);
    }),
  );
}
