// The tool list a model reads on every conversation, kept small: each operation's 1–3 sentence summary, and an input schema
// with the parameters a call usually needs. Every other parameter is still accepted; workspace://tool/{name} has the
// full schema with every description (docs/AGENT_API.md too).
import type { Operation } from '../ops/operation.js';
import { toolParameters } from '../tools.js';

/**
 * Parameters every change tool (or many tools) accepts that a call rarely needs: left out of tools/list, named once in
 * the server's instructions, described in workspace://tool/{name}.
 */
export const UNLISTED = new Set([
  'no_wait', 'wait_s', 'snapshot', 'keep_sandbox', 'python', 'typecheck_command', 'timeout', 'workspace_path', 'rust_analyzer',
  'include', 'exclude', 'rename_strings', 'rename_comments', 'keep_alias', 'include_unsure', 'safety', 'strict', 'display_description',
  'line_numbers', 'max_results', 'max_matches', 'case_insensitive', 'context', 'keep_definition', 'keep_reexport', 'force', 'confirm', 'overwrite',
  // A plan's steps are listed where they are required (tug_run_plan); analyze-impact's preview of a plan is described in full.
  'steps', 'verify_each', 'squash',
]);

/**
 * Briefs that only restate the parameter's name and type (an argv array, a file's path, tug_clean's switches, an enum of
 * languages): left out of the list, kept in workspace://tool/{name}. A brief matching the pattern is the one dropped.
 */
const SELF_EXPLAINED: Record<string, RegExp> = {
  test_command: /^Test command argv$/,
  path: /^Path to the file( to delete)?$/,
  language: /^The language whose toolchain/,
  workers: /^Stop worker processes/,
  cache: /^Delete the facts and snapshot caches$/,
  sandboxes: /^Remove tug's sandbox checkouts$/,
};

/** JSON Schema keywords a model does not need to call well; the server checks them anyway. */
const DROPPED = new Set(['$schema', 'description', 'minLength', 'minimum', 'maximum', 'exclusiveMinimum', 'minItems', 'maxItems', 'default', 'additionalProperties']);

function lean(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(lean);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => !DROPPED.has(key))
      // `properties` maps names to schemas; a property named like a keyword (default, description) stays.
      .map(([key, value]) => [key, key === 'properties' ? Object.fromEntries(Object.entries(value as object).map(([name, s]) => [name, lean(s)])) : lean(value)]),
  );
}

/** A parameter's description cut to its first clause, when that is short; long explanations stay in workspace://tool/{name}. */
function briefly(description: string | undefined): string | undefined {
  // "e.g." ends no clause: the brief stops before it instead of ending in "e.g".
  const clause = description?.split(/(?<=\.)\s|;\s|\s\(|,? e\.g\./)[0]?.replace(/\.$/, '');
  return clause && clause.length <= BRIEF ? clause : undefined;
}

const BRIEF = 48;

/** The model-facing description and input schema of one tool. */
export function listedTool(operation: Operation): { description: string; inputSchema: Record<string, unknown> } {
  const full = toolParameters(operation) as { properties?: Record<string, unknown>; required?: string[] };
  const required = full.required ?? [];
  const properties = Object.fromEntries(
    Object.entries(full.properties ?? {})
      .filter(([name]) => required.includes(name) || !UNLISTED.has(name))
      .map(([name, schema]) => {
        const brief = briefly((schema as { description?: string }).description);
        const note = brief && Object.hasOwn(SELF_EXPLAINED, name) && SELF_EXPLAINED[name]!.test(brief) ? undefined : brief;
        return [name, { ...(lean(schema) as object), ...(note ? { description: note } : {}) }];
      }),
  );
  return {
    description: operation.summary ?? operation.description,
    inputSchema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
  };
}

/** workspace://tool/{name}: everything tools/list leaves out, for a model that needs a rarely used parameter (resources.ts adds the described output schema). */
export function fullTool(operation: Operation): Record<string, unknown> {
  return { name: operation.tool, description: operation.description, inputSchema: toolParameters(operation) };
}
