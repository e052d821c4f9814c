// The fields of move-symbol, shared by its registry entry and its run.
import { z } from 'zod';
import { ChangeFields, CommonFields, PositionFields } from '../operation.js';

export const moveSymbolFields = {
  ...PositionFields,
  destination: z
    .string()
    .min(1)
    .describe('Where the symbol goes: a dotted module (pkg.sub.mod) or a workspace path ending in .py (TypeScript/JavaScript: a path with its extension, src/discounts.ts). A module that does not exist is created (no __init__.py is added: a directory without one is a namespace package). Rust: a module path of the same crate (crate::a::b) or a .rs file; a new module gets its `mod` line in its parent.'),
  keep_reexport: z.boolean().optional().describe('Leave `from <destination> import <name>` in the old module, so imports through the old path keep working (the old __all__ keeps the name). Rust: `pub use crate::new::Item;`, TypeScript: `export { name } from`, in the old module.'),
};

export const moveSymbolInput = z.object({ ...CommonFields, ...ChangeFields, ...moveSymbolFields });
