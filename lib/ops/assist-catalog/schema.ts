// The fields of `assists` (what rust-analyzer offers at a place) and `assist` (apply one by id), and the list's answer.
import { z } from 'zod';
import { SCHEMA_VERSION, Warning } from '../../core/schemas.js';
import { ChangeFields, CommonFields, PositionFields, positionFromAt, rangeFromSpec } from '../operation.js';
import { rustAnalyzerField } from '../assists/rust.js';

export const placeFields = {
  ...PositionFields,
  file: PositionFields.file.describe('Rust file, relative to the workspace root.'),
  end_line: z.number().int().min(1).optional().describe('1-based line where a selected range ends (default: a position).'),
  end_column: z.number().int().min(1).optional().describe('1-based column just after the range (end exclusive, UTF-8 bytes).'),
  ...rustAnalyzerField,
};

export const assistFields = {
  ...placeFields,
  id: z.string().min(1).describe('The assist id as tug_assists lists it, e.g. add_missing_match_arms.'),
};

export const assistsInput = z.object({ ...CommonFields, ...placeFields });
export const assistInput = z.object({ ...CommonFields, ...ChangeFields, ...assistFields });

export const AssistsResponse = z.object({
  status: z.literal('ok'),
  schema_version: z.literal(SCHEMA_VERSION),
  snapshot_id: z.string(),
  location: z.string(),
  assists: z.array(z.object({ id: z.string(), label: z.string(), kind: z.string(), group: z.string().optional() })),
  warnings: z.array(Warning),
});

/** `--at FILE:LINE:COL` or `FILE:LINE:COL-LINE:COL` as the schema's fields. */
export function placeFromAt(at: unknown): Record<string, unknown> {
  if (typeof at !== 'string') return {};
  return /:\d+:\d+-\d+:\d+$/.test(at) ? rangeFromSpec(at) : positionFromAt(at);
}
