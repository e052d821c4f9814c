// What bin/tug and bin/git-tug run: the repository's daemon when one serves the command, else the CLI in this process, bundled and code-cached when the build made the bundle.
import { tryDaemon } from '../daemon/client.js';
import { loadBundledCli } from './bundle-loader.js';

export async function launch(argv: readonly string[]): Promise<number> {
  const forwarded = await tryDaemon(argv);
  if (forwarded !== null) return forwarded;
  const bundled = loadBundledCli();
  if (!bundled) {
    const plain = await import('./main.js');
    return plain.main(argv);
  }
  const code = await bundled.main(argv);
  bundled.saveCodeCache();
  return code;
}
