// The one list of operations every front door serves; an operation that does not work is not in it.
import { applyPatchOperation } from './apply-patch-op.js';
import { applyPatchsetOperation } from './apply-patchset-op.js';
import { createFileOperation } from './create-file-op.js';
import { deleteFileOperation } from './delete-file-op.js';
import { doctorOperation } from './doctor-op.js';
import { editFileOperation } from './edit-file-op.js';
import { grepFileOperation } from './grep-file-op.js';
import { listDirectoryOperation } from './list-directory-op.js';
import { listFilesOperation } from './list-files-op.js';
import { logOperation, showOperation } from './log-ops.js';
import { moveFileOperation } from './move-file-op.js';
import { readFileOperation } from './read-file-op.js';
import { runCommandOperation } from './run-command-op.js';
import { writeFileOperation } from './write-file-op.js';
import type { Operation } from './operation.js';
import { extractFunctionOperation, extractVariableOperation, inlineOperation, organizeImportsOperation } from './assist-op.js';
import { analyzeImpactOperation, renameOperation } from './rename-op.js';
import { cleanOperation, sessionStatusOperation } from './session-ops.js';
import { snapshotOperation } from './snapshot-op.js';
import { toolchainOperation } from './toolchain-op.js';
import { trustOperation } from './trust-op.js';
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
] as readonly Operation[];

/** Seed 000's name for the shell tool; `tug tool run_pty_cmd` and agentTools() accept it too. */
export const TOOL_ALIASES: Readonly<Record<string, string>> = { run_pty_cmd: 'run_command' };

export function findOperation(name: string): Operation | undefined {
  const wanted = TOOL_ALIASES[name] ?? name;
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
