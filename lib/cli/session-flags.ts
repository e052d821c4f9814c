// --session-name and --fresh: which session a command uses, and starting it without caches, workers or sandboxes.
import path from 'node:path';
import { TugError } from '../core/errors.js';
import { discoverRepo } from '../git/repo.js';
import { parseInput } from '../ops/operation.js';
import { findOperation } from '../ops/registry.js';
import { releaseResources } from '../ops/resources.js';
import { commonInput, type Args } from './args.js';
import type { CliIO } from './io.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Runs before every command: `--session-name NAME` becomes the session dir `<sessions>/sessions/NAME` beside the
 * default one (default: <git-common-dir>/tug, or $TUG_SESSION_DIR), and `--fresh` cleans that session first.
 */
export function sessionFlags(io: CliIO) {
  return async (args: Args): Promise<void> => {
    const name = args['session-name'];
    if (typeof name === 'string') {
      if (typeof args['session-dir'] === 'string') {
        throw new TugError('InvalidArgument', '--session-name and --session-dir cannot be combined', { details: { argument: 'session-name', reason: 'conflicts with --session-dir' } });
      }
      if (!NAME.test(name)) {
        throw new TugError('InvalidArgument', `--session-name ${JSON.stringify(name)} must be letters, digits, '.', '_' or '-' (at most 64)`, { details: { argument: 'session-name', reason: 'invalid name' } });
      }
      const repo = await discoverRepo(commonInput(args, io).workspace);
      const env = process.env['TUG_SESSION_DIR'];
      const base = env ? path.resolve(repo.root, env) : path.join(repo.commonDir, 'tug');
      args['session-dir'] = path.join(base, 'sessions', name);
      args['sessionDir'] = args['session-dir'];
    }
    if (args['fresh']) {
      // Warm helpers of this process first (a daemon's workers), so nothing keeps using what clean stops.
      await releaseResources();
      const clean = findOperation('clean')!;
      const { workspace, session_dir } = commonInput(args, io);
      await clean.execute(parseInput(clean.input, { workspace, session_dir, workers: true, cache: true, sandboxes: true }, 'fresh'), {});
    }
  };
}
