// The one list of operations every front door serves; an operation that does not work is not in it.
import { applyPatchsetOperation } from './apply-patchset-op.js';
import type { Operation } from './operation.js';
import { analyzeImpactOperation, renameOperation } from './rename-op.js';
import { cleanOperation, sessionStatusOperation } from './session-ops.js';
import { snapshotOperation } from './snapshot-op.js';
import { toolchainOperation } from './toolchain-op.js';
import { undoOperation } from './undo-op.js';
import { verifyOperation } from './verify-op.js';

export const operations: readonly Operation[] = [
  snapshotOperation,
  analyzeImpactOperation,
  renameOperation,
  applyPatchsetOperation,
  verifyOperation,
  undoOperation,
  sessionStatusOperation,
  cleanOperation,
  toolchainOperation,
] as readonly Operation[];

export function findOperation(name: string): Operation | undefined {
  return operations.find((op) => op.name === name || op.tool === name);
}
