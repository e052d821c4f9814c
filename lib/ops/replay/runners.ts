// The operations a replay or a plan can run as a step, by registry name (or MCP name), loaded when a step needs one.
// Kept here rather than read from the registry: the registry lists the replay operation itself (no import circles).
import { TugError } from '../../core/errors.js';
import { closestNames } from '../../core/did-you-mean.js';
import type { Operation } from '../operation.js';

const ENTRIES: Record<string, () => Promise<Operation>> = {
  'rename-symbol': async () => (await import('../rename/operation.js')).renameOperation as unknown as Operation,
  'move-symbol': async () => (await import('../move-symbol/operation.js')).moveSymbolOperation as unknown as Operation,
  'change-signature': async () => (await import('../change-signature/operation.js')).changeSignatureOperation as unknown as Operation,
  'organize-imports': async () => (await import('../organize-imports/operation.js')).organizeImportsOperation as unknown as Operation,
  'extract-variable': async () => (await import('../extract-variable/operation.js')).extractVariableOperation as unknown as Operation,
  'extract-function': async () => (await import('../extract-function/operation.js')).extractFunctionOperation as unknown as Operation,
  inline: async () => (await import('../inline/operation.js')).inlineOperation as unknown as Operation,
  assist: async () => (await import('../assist-catalog/operation.js')).assistOperation as unknown as Operation,
  'apply-patchset': async () => (await import('../apply-patchset/operation.js')).applyPatchsetOperation as unknown as Operation,
};

/** Command-line shorthands that differ from the registry name (`tug rename`, `tug move`); the others are the name. */
const SHORTHANDS: Record<string, string> = { rename: 'rename-symbol', move: 'move-symbol' };

/** `rename_symbol`, `tug_rename_symbol`, `rename-symbol` and the command `rename` all name rename-symbol. */
export function stepOperationName(name: string): string {
  const plain = name.replace(/^tug_/, '').replaceAll('_', '-');
  if (Object.hasOwn(ENTRIES, plain)) return plain;
  if (Object.hasOwn(SHORTHANDS, plain)) return SHORTHANDS[plain]!;
  const close = closestNames(plain, Object.keys(ENTRIES));
  throw new TugError('UnsupportedOperation', `${JSON.stringify(name)} cannot be a step${close.length ? ` (did you mean ${close[0]}?)` : ''}; steps are ${Object.keys(ENTRIES).join(', ')}`, {
    details: { operation: name, reason: 'not a refactor', ...(close.length ? { did_you_mean: close[0] } : {}) },
  });
}

export async function stepOperation(name: string): Promise<Operation> {
  return ENTRIES[stepOperationName(name)]!();
}
