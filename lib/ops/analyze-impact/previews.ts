// The refactors analyze-impact can show, under the names MCP gives them: each one's fields and the run that previews it.
// A refactor joins analyze-impact by adding its line here.
import type { z } from 'zod';
import type { ChangePreviewJSON } from '../../core/schemas.js';
import type { OperationContext } from '../operation.js';
import { renameFields } from '../rename/schema.js';
import { extractFunctionFields } from '../extract-function/schema.js';
import { extractVariableFields } from '../extract-variable/schema.js';
import { inlineFields } from '../inline/schema.js';
import { organizeImportsFields } from '../organize-imports/schema.js';
import { moveSymbolFields } from '../move-symbol/schema.js';
import { changeSignatureFields } from '../change-signature/schema.js';
import { assistFields } from '../assist-catalog/schema.js';

type Preview = (input: never, context: OperationContext) => Promise<ChangePreviewJSON>;

export interface PreviewEntry {
  /** The registry name of the refactor (`tug run NAME`). */
  name: string;
  fields: Record<string, z.ZodType>;
  /** Absent for rename-symbol, whose analysis lists references instead of a patch. */
  preview?: () => Promise<Preview>;
}

export const PREVIEWS = {
  rename_symbol: { name: 'rename-symbol', fields: renameFields },
  extract_variable: {
    name: 'extract-variable',
    fields: extractVariableFields,
    preview: async () => (await import('../extract-variable/run.js')).previewExtractVariable as Preview,
  },
  extract_function: {
    name: 'extract-function',
    fields: extractFunctionFields,
    preview: async () => (await import('../extract-function/run.js')).previewExtractFunction as Preview,
  },
  inline: { name: 'inline', fields: inlineFields, preview: async () => (await import('../inline/run.js')).previewInline as Preview },
  organize_imports: {
    name: 'organize-imports',
    fields: organizeImportsFields,
    preview: async () => (await import('../organize-imports/run.js')).previewOrganizeImports as Preview,
  },
  move_symbol: { name: 'move-symbol', fields: moveSymbolFields, preview: async () => (await import('../move-symbol/run.js')).previewMoveSymbol as Preview },
  change_signature: {
    name: 'change-signature',
    fields: changeSignatureFields,
    preview: async () => (await import('../change-signature/run.js')).previewChangeSignature as Preview,
  },
  assist: { name: 'assist', fields: assistFields, preview: async () => (await import('../assist-catalog/run.js')).previewAssist as Preview },
} satisfies Record<string, PreviewEntry>;

export type PreviewName = keyof typeof PREVIEWS;
export const PREVIEW_NAMES = Object.keys(PREVIEWS) as [PreviewName, ...PreviewName[]];
