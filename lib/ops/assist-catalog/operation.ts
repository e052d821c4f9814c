// `assists` lists rust-analyzer's assists at a place; `assist` applies one of them by id as a verified refactor.
import { RunResponse } from '../../core/schemas.js';
import { defineOperation } from '../operation.js';
import { flagFields, rustAnalyzerFlag } from '../change/cli-flags.js';
import type { CliFlag } from '../operation.js';
import { AssistsResponse, assistInput, assistsInput, placeFromAt } from './schema.js';

const placeFlag: CliFlag = { type: 'string', describe: 'FILE:LINE:COL or FILE:L1:C1-L2:C2 (1-based, end exclusive)', required: true };

export const assistsOperation = defineOperation({
  name: 'assists',
  tool: 'tug_assists',
  summary: 'List the rust-analyzer assists (id, label) offered at a Rust position or range.',
  description:
    "List the assists rust-analyzer offers at a position or range of a Rust file (id, label, LSP kind, group), sorted by id; a second offer of one id is listed as id#2. Reads a snapshot, writes nothing; apply one with tug_assist.",
  input: assistsInput,
  output: AssistsResponse,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(input, context) {
    const { runListAssists } = await import('./list.js');
    return runListAssists(input, context);
  },
});

export const assistOperation = defineOperation({
  name: 'assist',
  tool: 'tug_assist',
  summary: 'Apply one rust-analyzer assist by id at a Rust position or range, verified and committed on a tug/ branch.',
  description:
    "Apply one rust-analyzer assist by the id tug_assists lists at that position or range: its resolved edit (snippet placeholders keep their default text, cursor marks go; files it creates or moves included), verified in a sandbox (cargo check or tests), committed on tug/assist/<id>-<place>. An id not offered there is InvalidArgument listing the ids offered; an assist whose edit needs input tug cannot give (a command, a choice) is UnsupportedByAdapter.",
  input: assistInput,
  output: RunResponse,
  annotations: { readOnly: false, destructive: false, idempotent: true },
  async execute(input, context) {
    const { runAssist } = await import('./run.js');
    return runAssist(input, context);
  },
  cli: {
    flags: { id: { type: 'string', describe: 'rust-analyzer assist id, as `tug assists` lists it', required: true }, at: placeFlag, 'rust-analyzer': rustAnalyzerFlag },
    fields: (args) => ({ ...placeFromAt(args['at']), ...flagFields(args, ['id', 'rust-analyzer']) }),
    examples: ['tug run assist --id add_missing_match_arms --at src/lib.rs:8:5 --verify tests'],
  },
});
