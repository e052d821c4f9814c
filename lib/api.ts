// Typed functions for library users: each validates its input with the operation's zod schema and returns its typed result.
import type { z } from 'zod';
import type { Operation, OperationContext } from './ops/operation.js';
import { parseInput } from './ops/operation.js';
import { applyPatchsetOperation } from './ops/apply-patchset/operation.js';
import { renameOperation } from './ops/rename/operation.js';
import { analyzeImpactOperation } from './ops/analyze-impact/operation.js';
import { cleanOperation, sessionStatusOperation } from './ops/session/operations.js';
import { snapshotOperation } from './ops/snapshot/operation.js';
import { toolchainOperation } from './ops/toolchain/operation.js';
import { undoOperation } from './ops/undo/operation.js';
import { verifyOperation } from './ops/verify/operation.js';
import { applyPatchOperation } from './ops/files/apply-patch.js';
import { createFileOperation } from './ops/files/create-file.js';
import { deleteFileOperation } from './ops/files/delete-file.js';
import { editFileOperation } from './ops/files/edit-file.js';
import { grepFileOperation } from './ops/files/grep-file.js';
import { listDirectoryOperation } from './ops/files/list-directory.js';
import { listFilesOperation } from './ops/files/list-files.js';
import { logOperation, showOperation } from './ops/log/operations.js';
import { moveFileOperation } from './ops/files/move-file.js';
import { readFileOperation } from './ops/files/read-file.js';
import { runCommandOperation } from './ops/run-command/operation.js';
import { writeFileOperation } from './ops/files/write-file.js';
import { moveSymbolOperation } from './ops/move-symbol/operation.js';
import { changeSignatureOperation } from './ops/change-signature/operation.js';
import { organizeImportsOperation } from './ops/organize-imports/operation.js';
import { extractVariableOperation } from './ops/extract-variable/operation.js';
import { extractFunctionOperation } from './ops/extract-function/operation.js';
import { inlineOperation } from './ops/inline/operation.js';
import { doctorOperation } from './ops/doctor/operation.js';
import { assistOperation, assistsOperation } from './ops/assist-catalog/operation.js';
import { runPlanOperation } from './ops/plan/operation.js';
import { replayOperation } from './ops/replay/operation.js';
import { checkMergeOperation } from './ops/check-merge/operation.js';

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
export const moveSymbol = typed(moveSymbolOperation);
export const changeSignature = typed(changeSignatureOperation);
export const organizeImports = typed(organizeImportsOperation);
export const extractVariable = typed(extractVariableOperation);
export const extractFunction = typed(extractFunctionOperation);
export const inline = typed(inlineOperation);
export const doctor = typed(doctorOperation);
export const listAssists = typed(assistsOperation);
export const applyAssist = typed(assistOperation);
/** Several refactors as one verified change: one branch, a commit per step (or squash), one undo token. */
export const runPlan = typed(runPlanOperation);
/** Redo a tug/ branch's recorded operations on the current tree (or onto a ref): a new verified branch. */
export const replay = typed(replayOperation);
/** Whether merging a tug/ branch would be clean and complete: git conflicts and new uses of what it changed. */
export const checkMerge = typed(checkMergeOperation);
