// execa for the test files, from the one-module bundle the build makes (scripts/bundle-test-deps.mjs): each test file
// runs in its own process, and loading execa's ~100 modules cost each 0.2–0.3 CPU s; the bundle costs about 0.04.
// Without the bundle (only `tsc` was run) the package itself is loaded, the same code.
import type * as Execa from 'execa';

async function load(): Promise<typeof Execa> {
  try {
    return (await import(new URL('../vendor/execa.mjs', import.meta.url).href)) as typeof Execa;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    return await import('execa');
  }
}

export const { execa } = await load();
