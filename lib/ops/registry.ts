// The one list of operations every front door serves; an operation that does not work is not in it.
import { applyPatchOperation } from './files/apply-patch.js';
import { applyPatchsetOperation } from './apply-patchset/operation.js';
import { createFileOperation } from './files/create-file.js';
import { deleteFileOperation } from './files/delete-file.js';
import { doctorOperation } from './doctor/operation.js';
import { editFileOperation } from './files/edit-file.js';
import { grepFileOperation } from './files/grep-file.js';
import { listDirectoryOperation } from './files/list-directory.js';
import { listFilesOperation } from './files/list-files.js';
import { logOperation, showOperation } from './log/operations.js';
import { moveFileOperation } from './files/move-file.js';
import { readFileOperation } from './files/read-file.js';
import { runCommandOperation } from './run-command/operation.js';
import { writeFileOperation } from './files/write-file.js';
import type { Operation } from './operation.js';
import { extractVariableOperation } from './extract-variable/operation.js';
import { extractFunctionOperation } from './extract-function/operation.js';
import { inlineOperation } from './inline/operation.js';
import { organizeImportsOperation } from './organize-imports/operation.js';
import { moveSymbolOperation } from './move-symbol/operation.js';
import { changeSignatureOperation } from './change-signature/operation.js';
import { assistOperation, assistsOperation } from './assist-catalog/operation.js';
import { renameOperation } from './rename/operation.js';
import { replayOperation } from './replay/operation.js';
import { checkMergeOperation } from './check-merge/operation.js';
import { runPlanOperation } from './plan/operation.js';
import { analyzeImpactOperation } from './analyze-impact/operation.js';
import { cleanOperation, sessionStatusOperation } from './session/operations.js';
import { snapshotOperation } from './snapshot/operation.js';
import { toolchainOperation } from './toolchain/operation.js';
import { trustOperation } from './trust/operation.js';
import { undoOperation } from './undo/operation.js';
import { verifyOperation } from './verify/operation.js';

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
  readFileOperation,
  listFilesOperation,
  listDirectoryOperation,
  grepFileOperation,
  editFileOperation,
  writeFileOperation,
  createFileOperation,
  deleteFileOperation,
  moveFileOperation,
  applyPatchOperation,
  runCommandOperation,
  logOperation,
  showOperation,
  doctorOperation,
  extractVariableOperation,
  extractFunctionOperation,
  inlineOperation,
  organizeImportsOperation,
  moveSymbolOperation,
  changeSignatureOperation,
  assistsOperation,
  assistOperation,
  replayOperation,
  checkMergeOperation,
  runPlanOperation,
] as readonly Operation[];

/** Seed 000's name for the shell tool; `tug tool run_pty_cmd` and agentTools() accept it too. */
export const TOOL_ALIASES: Readonly<Record<string, string>> = { run_pty_cmd: 'run_command' };

export function findOperation(name: string): Operation | undefined {
  const wanted = (Object.hasOwn(TOOL_ALIASES, name) ? TOOL_ALIASES[name] : undefined) ?? name;
  return operations.find((op) => op.name === wanted || op.tool === wanted || op.agentName === wanted);
}

/**
 * Operations only a person runs, from the CLI: `tug trust` decides what a repository may make tug run, so an agent
 * (which may be following the repository's own instructions) must not reach it through MCP or the tool registry.
 */
export const userOperations: readonly Operation[] = [trustOperation] as readonly Operation[];

export function findUserOperation(name: string): Operation | undefined {
  return userOperations.find((op) => op.name === name);
}
