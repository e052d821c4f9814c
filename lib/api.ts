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
import { applyPatchOperation } from './ops/apply-patch-op.js';
import { createFileOperation } from './ops/create-file-op.js';
import { deleteFileOperation } from './ops/delete-file-op.js';
import { editFileOperation } from './ops/edit-file-op.js';
import { grepFileOperation } from './ops/grep-file-op.js';
import { listDirectoryOperation } from './ops/list-directory-op.js';
import { listFilesOperation } from './ops/list-files-op.js';
import { logOperation, showOperation } from './ops/log-ops.js';
import { moveFileOperation } from './ops/move-file-op.js';
import { readFileOperation } from './ops/read-file-op.js';
import { runCommandOperation } from './ops/run-command-op.js';
import { writeFileOperation } from './ops/write-file-op.js';

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
export const readFile = typed(readFileOperation);
export const listFiles = typed(listFilesOperation);
export const listDirectory = typed(listDirectoryOperation);
export const grepFile = typed(grepFileOperation);
export const editFile = typed(editFileOperation);
export const writeFile = typed(writeFileOperation);
export const createFile = typed(createFileOperation);
export const deleteFile = typed(deleteFileOperation);
export const moveFile = typed(moveFileOperation);
export const applyPatch = typed(applyPatchOperation);
export const runCommand = typed(runCommandOperation);
export const operationLog = typed(logOperation);
export const showLogEntry = typed(showOperation);
