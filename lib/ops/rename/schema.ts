// The fields of rename-symbol and analyze-impact and the analysis response, shared by their registry entries and their runs.
import { z } from 'zod';
import { Location, SCHEMA_VERSION, Unsure, Warning } from '../../core/schemas.js';
import { ChangeFields, CommonFields } from '../operation.js';

export const renameFields = {
  file: z.string().min(1).describe('File containing the symbol, relative to the workspace root.'),
  line: z.number().int().min(1).describe('1-based line of the symbol.'),
  column: z.number().int().min(1).describe('1-based column of the symbol (counts UTF-8 bytes).'),
  new_name: z.string().min(1).describe('The new name for the symbol.'),
  rename_strings: z.boolean().optional().describe('Also rename string literals equal to the old name (each reported as a warning).'),
  rename_comments: z.boolean().optional().describe('Also rename whole-word mentions in comments (each reported as a warning).'),
  include_unsure: z
    .boolean()
    .optional()
    .describe('Also rename the occurrences tug could not prove (Python: receivers of unknown type, getattr strings, decorated objects; Rust: names in macro calls rust-analyzer cannot expand, macro_rules! bodies, cfg\'d-out code); each is listed in `unsure` with renamed: true.'),
  keep_alias: z
    .boolean()
    .optional()
    .describe('Python: keep the old name working as a deprecated alias (`old = new` in each module or class that binds it, and in `__all__`); each alias is reported as an AliasKept warning.'),
  rust_analyzer: z.string().optional().describe('rust-analyzer binary for Rust targets (default: $TUG_RA_PATH, PATH, then the one `tug toolchain rust setup` installed).'),
  include: z.array(z.string().min(1)).optional().describe('Python: analyse only files matching one of these globs, relative to the repository root (default: `include` in the config, TUG_INCLUDE, else every file).'),
  safety: z
    .enum(['strict', 'normal', 'aggressive'])
    .optional()
    .describe(
      'Python: strict refuses an ambiguous position (AmbiguousSymbol); normal renames the name before it with a warning; aggressive also renames equal strings and comments, each reported (default: safety_mode in the config, TUG_SAFETY, else strict).',
    ),
  exclude: z.array(z.string().min(1)).optional().describe('Python: leave files matching one of these globs out of the analysis (default: `exclude` in the config, TUG_EXCLUDE).'),
};

export const renameInput = z.object({ ...CommonFields, ...ChangeFields, ...renameFields });

const Reference = z.object({ location: Location, kind: z.enum(['definition', 'call', 'reference', 'import', 'attribute']) });

/** analyze-impact of a rename: the symbol and every reference, nothing changed. */
export const RenameImpact = z.object({
  status: z.literal('ok'),
  schema_version: z.literal(SCHEMA_VERSION),
  snapshot_id: z.string(),
  symbol: z.object({ id: z.string(), name: z.string(), kind: z.string(), location: Location }),
  references: z.array(Reference),
  impact: z.object({ files_affected: z.number().int(), references_count: z.number().int(), edits_estimated: z.number().int() }),
  warnings: z.array(Warning),
  unsure: z.array(Unsure).optional().describe('Places tug could not prove name the symbol (not counted in references); omitted when there are none.'),
});

/** What analyze-impact takes for a rename (the operation field is analyze-impact's own). */
export const renameImpactInput = z.object({ ...CommonFields, ...renameFields, python: ChangeFields.python });
