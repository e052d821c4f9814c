// The MCP server's tools/list: built from the registry (zod → JSON Schema for every tool, ~100 ms of CPU), or, for tug's
// own tools in the CLI bundle, read from the file the build wrote beside it (scripts/bundle-cli.mjs).
import { readFileSync } from 'node:fs';
import type { Operation } from '../ops/operation.js';
import { sentUnchanged } from './stdio.js';
import { runsAsTask } from './tasks.js';
import { describeTool, type McpTool } from './tools.js';

// A type, not an interface: the SDK's result types want an object with an index signature.
export type ToolList = { tools: Array<McpTool & { execution?: { taskSupport: 'optional' } }> };

/**
 * Set by the bundler to a token made anew by each build; also the first line of the list file. A list written by another
 * build (an older one, a rebuild of the bundle alone) is never served: the server builds the list itself.
 */
declare const __tugBuildToken: string | undefined;
const BUILD_TOKEN = typeof __tugBuildToken === 'string' ? __tugBuildToken : undefined;

/** Beside the bundle: dist/lib/cli-bundle/../mcp-tool-list.json (the same depth from dist/lib/mcp/). */
export const TOOL_LIST_FILE = new URL('../mcp-tool-list.json', import.meta.url);

/** The tools/list result for `registry`, computed. */
export function buildToolList(registry: readonly Operation[]): ToolList {
  return { tools: registry.map((op) => ({ ...describeTool(op), ...(runsAsTask(op) ? { execution: { taskSupport: 'optional' as const } } : {}) })) };
}

/** The list file's text: the build's token, a newline, the list's JSON. */
export function toolListFileText(token: string, list: ToolList): string {
  return `${token}\n${JSON.stringify(list)}`;
}

/** The list in a list file's text when that file was written by the build `token` names; else undefined. */
export function prebuiltToolList(text: string, token: string | undefined): { list: ToolList; json: string } | undefined {
  const newline = text.indexOf('\n');
  if (token === undefined || newline < 0 || text.slice(0, newline) !== token) return undefined;
  const json = text.slice(newline + 1);
  try {
    return { list: JSON.parse(json) as ToolList, json };
  } catch {
    return undefined;
  }
}

/**
 * tools/list for the server, with its JSON text kept for every answer (stdio.ts sentUnchanged). Tug's own tools alone
 * (no providers) come from the build's file when this is the bundle that build made; otherwise they are built here.
 */
export function serverToolList(registry: readonly Operation[], ownToolsOnly: boolean): ToolList {
  if (ownToolsOnly && BUILD_TOKEN !== undefined) {
    let text: string | undefined;
    try {
      text = readFileSync(TOOL_LIST_FILE, 'utf8');
    } catch {
      text = undefined;
    }
    const prebuilt = text === undefined ? undefined : prebuiltToolList(text, BUILD_TOKEN);
    if (prebuilt) return sentUnchanged(prebuilt.list, prebuilt.json);
  }
  return sentUnchanged(buildToolList(registry));
}
