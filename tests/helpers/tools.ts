// Calls agent tools in-process the way a seed registry does (execute_tool), against a test repository.
import { executeTool, isToolSuccess } from '../../lib/index.js';
import type { TestRepo } from './repo.js';

export type ToolResult = Record<string, any>;

export async function call(repo: TestRepo, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return executeTool(name, args, { workspace: repo.root });
}

export { isToolSuccess };
