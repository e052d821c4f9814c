// Renders docs/AGENT_API.md from the registry itself, so the document cannot drift from the tools and codes.
import { z } from 'zod';
import { ERROR_CODES } from '../../lib/core/errors.js';
import { operations } from '../../lib/ops/registry.js';

export function renderAgentApi(): string {
  const lines: string[] = [
    '# tug for agents: commands, tools, errors',
    '',
    'Generated from the operation registry by `tests/agent-api.test.ts` (`TUG_UPDATE_GOLDEN=1 npm test` rewrites it).',
    'The same operations are CLI commands (`tug <command>`, JSON on stdout when it is not a terminal),',
    'MCP tools (`tug mcp`), and library tools (`agentTools()` from `tugtool`); the JSON is identical.',
    '',
    '## Envelope and ordering',
    '',
    '- Every response starts with `status` (`ok` or `error`) and `schema_version` (`"1"`); operations that read',
    '  the workspace also carry `snapshot_id` (a git tree id).',
    '- Errors: `{"status":"error","schema_version":"1","snapshot_id"?,"error":{"code","message","hint","details"?,"location"?}}`.',
    '- `references` are ordered by (file, line, col); `patch.edits` by (file, span.start); warnings with a',
    '  location by (file, line), the others first in a stable order. Keys appear in the order of the schemas below.',
    '- The same input gives byte-identical JSON: durations and the output of passing checks appear only with',
    '  `TUG_TIMINGS=1`.',
    '',
    '## Exit codes',
    '',
    '| exit | meaning |',
    '| --- | --- |',
    '| 0 | success |',
    '| 2 | invalid arguments or environment |',
    '| 3 | not found: symbol, file, position, undo token |',
    '| 4 | could not apply safely; nothing was written |',
    '| 5 | verification failed; nothing was committed or written |',
    '| 10 | internal error (a bug) |',
    '',
    '## Error codes',
    '',
    '| code | exit | meaning | what to do |',
    '| --- | --- | --- | --- |',
  ];
  for (const [code, entry] of Object.entries(ERROR_CODES)) lines.push(`| \`${code}\` | ${entry.exit} | ${entry.title} | ${entry.hint} |`);
  lines.push('', '## Operations', '');
  for (const op of operations) {
    const hints = [op.annotations.readOnly ? 'read-only' : 'writes only through its own commit/apply steps', op.annotations.destructive ? 'destructive' : null, op.annotations.idempotent ? 'idempotent' : null]
      .filter(Boolean)
      .join(', ');
    lines.push(`### \`${op.name}\` — tool \`${op.tool}\``, '', op.description, '', `Hints: ${hints}.`, '', 'Input:', '', '```json');
    lines.push(JSON.stringify(z.toJSONSchema(op.input, { io: 'input', unrepresentable: 'any' }), null, 2), '```', '', 'Output:', '', '```json');
    lines.push(JSON.stringify(z.toJSONSchema(op.output, { io: 'output', unrepresentable: 'any' }), null, 2), '```', '');
  }
  return `${lines.join('\n')}\n`;
}
