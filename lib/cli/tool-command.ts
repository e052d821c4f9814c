// `tug tool --list` and `tug tool NAME --args JSON|-`: the agent tool registry (available_tools / execute_tool) on the command line; JSON for programs, text on a terminal.
import { readInputText } from './input-file.js';
import { TugError } from '../core/errors.js';
import { SCHEMA_VERSION } from '../core/schemas.js';
import { agentTools, executeTool, failureOf, isToolSuccess, type ToolOptions } from '../tools.js';
import type { CliIO } from './io.js';
import { writeJson, type OutputMode } from './output.js';
import { summarizeTool, summarizeToolError } from './summary-tool.js';

export async function toolCommand(args: Record<string, unknown>, options: ToolOptions, io: CliIO, mode: OutputMode): Promise<number> {
  const name = typeof args['name'] === 'string' ? args['name'] : undefined;
  if (args['list'] || name === undefined) {
    const tools = agentTools(options).map(({ name: n, description, parameters, annotations }) => ({ name: n, description, parameters, annotations }));
    if (mode.json) writeJson({ status: 'ok', schema_version: SCHEMA_VERSION, tools }, io);
    else io.out(`${tools.map((t) => `${t.name.padEnd(22)} ${t.description.split('. ')[0]}`).join('\n')}\n`);
    return 0;
  }
  // Bad --args is answered in the tool contract ({error, code, exit_code}), like every other failure of a tool call.
  let result: Record<string, unknown>;
  try {
    result = await executeTool(name, readArgs(args['args'], io), options);
  } catch (error) {
    if (!(error instanceof TugError)) throw error;
    result = failureOf(error);
  }
  if (mode.json) writeJson(result, io);
  else {
    const failure = summarizeToolError(result);
    if (failure) io.err(`${failure}\n`);
    else io.out(`${summarizeTool(result)}\n`);
  }
  if (isToolSuccess(result)) return 0;
  // A tug failure exits with its code (2–10); a command that ran and failed exits 1.
  return typeof result['code'] === 'string' && typeof result['exit_code'] === 'number' ? result['exit_code'] : 1;
}

function readArgs(value: unknown, io: CliIO): unknown {
  if (value === undefined) return {};
  let text: string;
  try {
    text = value === '-' ? readInputText('-', io.cwd, 'args') : String(value);
  } catch (error) {
    if (error instanceof TugError) throw error;
    throw new TugError('InvalidArgument', `cannot read --args from stdin: ${String(error)}`, { details: { argument: 'args', reason: 'unreadable stdin' } });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    void io;
    throw new TugError('InvalidArgument', `--args is not valid JSON: ${(error as Error).message}`, { details: { argument: 'args', reason: 'invalid JSON' } });
  }
}
