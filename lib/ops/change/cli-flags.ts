// Command-line flags several refactors share (`--at`, `--range`, `--name`, `--rust-analyzer`) and how each becomes
// schema fields, so every refactor reads the same flag the same way.
import { positionFromAt, rangeFromSpec, type CliFlag } from '../operation.js';

type Args = Record<string, unknown>;

export const atFlag: CliFlag = { type: 'string', describe: 'FILE:LINE:COL of the target (1-based; columns count UTF-8 bytes)', required: true };
export const rangeFlag: CliFlag = { type: 'string', describe: 'FILE:L1:C1-L2:C2 of the code, 1-based, end exclusive', required: true };
export const nameFlag: CliFlag = { type: 'string', describe: 'Name of what is created' };
export const rustAnalyzerFlag: CliFlag = { type: 'string', describe: 'rust-analyzer binary for .rs targets (default: $TUG_RA_PATH, PATH, tug setup)' };

/** `--at` as file, line and column. */
export function atFields(args: Args): Record<string, unknown> {
  return typeof args['at'] === 'string' ? positionFromAt(args['at']) : {};
}

/** `--range` as file, line, column, end_line and end_column. */
export function rangeFields(args: Args): Record<string, unknown> {
  return typeof args['range'] === 'string' ? rangeFromSpec(args['range']) : {};
}

/** Flags copied under their schema names (kebab-case → snake_case) when given. */
export function flagFields(args: Args, flags: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(flags.filter((flag) => args[flag] !== undefined).map((flag) => [flag.replaceAll('-', '_'), args[flag]]));
}
