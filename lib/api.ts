// Typed functions for library users: each validates its input with the operation's zod schema and returns its typed result.
import type { z } from 'zod';
import type { Operation, OperationContext } from './ops/operation.js';
import { parseInput } from './ops/operation.js';
import { applyPatchsetOperation } from './ops/apply-patchset-op.js';
import { analyzeImpactOperation, renameOperation } from './ops/rename-op.js';
import { cleanOperation, sessionStatusOperation } from './ops/session-ops.js';
import { snapshotOperation } from './ops/snapshot-op.js';
import { toolchainOperation } from './ops/toolchain-op.js';
import { undoOperation } from './ops/undo-op.js';
import { verifyOperation } from './ops/verify-op.js';

type Call<O extends Operation> = (input: z.input<O['input']>, context?: OperationContext) => Promise<z.output<O['output']>>;

function typed<O extends Operation>(operation: O): Call<O> {
  // Errors are thrown as TugError (code, exitCode, details); agentTools() offers the non-throwing form.
  return async (input, context = {}) => (await operation.execute(parseInput(operation.input, input, `${operation.tool} arguments`), context)) as z.output<O["output"]>;
}

export const snapshot = typed(snapshotOperation);
export const analyzeImpact = typed(analyzeImpactOperation);
export const renameSymbol = typed(renameOperation);
export const applyPatchset = typed(applyPatchsetOperation);
export const verifyWorkspace = typed(verifyOperation);
export const undo = typed(undoOperation);
export const sessionStatus = typed(sessionStatusOperation);
export const clean = typed(cleanOperation);
export const toolchain = typed(toolchainOperation);
