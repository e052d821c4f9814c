// tug's public library surface: the operation registry for agent frameworks, typed calls, and the contract types.
export { operations, findOperation } from './ops/registry.js';
export { defineOperation, type Operation, type OperationContext, type ToolAnnotations } from './ops/operation.js';
export { registryWith, type ToolProvider } from './tool-provider.js';
export { createMcpServer, serveMcpStdio, type McpServerOptions } from './mcp/server.js';
export { TugError, ERROR_CODES, EXIT, type ErrorCode, type TugErrorJSON } from './core/errors.js';
export {
  SCHEMA_VERSION,
  RunResponse,
  SnapshotResponse,
  UndoResponse,
  VerifyResponse,
  ErrorResponse,
  type RunResponseJSON,
  type WarningJSON,
  LogEntry,
  type LogEntryJSON,
} from './core/schemas.js';
export { buildPatchSet, type EditRequest, type PatchSet, type SourceFile } from './core/patchset.js';
export { unifiedDiff } from './core/unified-diff.js';
export { agentTools, availableTools, buildFunctionDeclarations, executeTool, isToolSuccess, type AgentTool, type FunctionDeclaration, type ToolOptions } from './tools.js';
export { analyzeImpact, applyPatchset, clean, renameSymbol, sessionStatus, snapshot, toolchain, undo, verifyWorkspace } from './api.js';
export { applyAssist, changeSignature, doctor, extractFunction, extractVariable, inline, listAssists, moveSymbol, organizeImports, runPlan } from './api.js';
export { checkMerge, replay } from './api.js';
export { applyPatch, createFile, deleteFile, editFile, grepFile, listDirectory, listFiles, moveFile, operationLog, readFile, runCommand, showLogEntry, writeFile } from './api.js';
