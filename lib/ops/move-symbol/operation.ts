// `move-symbol`: a top-level function, class or constant goes to another module, and every import follows it.
import { RunResponse } from '../../core/schemas.js';
import { defineOperation } from '../operation.js';
import { atFields, atFlag, flagFields } from '../change/cli-flags.js';
import { moveSymbolInput } from './schema.js';

export const moveSymbolOperation = defineOperation({
  name: 'move-symbol',
  tool: 'tug_move_symbol',
  summary: 'Move a top-level Python function, class or constant, a Rust item or a TypeScript/JavaScript declaration to another module, updating imports.',
  description:
    "Python: move the top-level function, class or constant at a position (with its decorators, leading comments and docstring) to another module, created if missing. The imports it needs go with it (names still defined in the old module are imported from there); the old module imports it back where it still uses it, or with keep_reexport. Every `from old import x` (aliased, relative, or split out of a multi-name import), `import old; old.x`, `__all__`, string annotations naming the old path, and the stub beside the module follow. Refused: an import cycle at import time (ImportCycle), a name the destination already binds (NameConflict), a symbol that is not top-level or a move into the same module. getattr strings, the module's __dict__ and other strings naming it are listed in unsure. Rust: a fn, struct, enum, trait, const, static or type alias (with its impls in the file) to crate::a::b or a .rs file; `use` paths in every crate follow, pub(crate) where needed; a published public path is refused unless keep_reexport. TypeScript/JavaScript: to a path (src/a.ts) through the language service; re-exports follow; default exports, import-time side effects and CommonJS exports refused. Verified in a sandbox, committed on tug/move-symbol/<name>-to-<module>.",
  input: moveSymbolInput,
  output: RunResponse,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async execute(input, context) {
    const { runMoveSymbol } = await import('./run.js');
    return runMoveSymbol(input, context);
  },
  cli: {
    flags: {
      at: atFlag,
      destination: { type: 'string', describe: 'Module to move into: pkg.sub.mod or src/pkg/sub/mod.py; Rust: crate::a::b or src/a/b.rs; TypeScript: src/a.ts (created if missing)', required: true },
      'keep-reexport': { type: 'boolean', describe: 'Leave `from NEW import NAME` (Rust: `pub use`) in the old module so old import paths keep working' },
    },
    fields: (args) => ({ ...atFields(args), ...flagFields(args, ['destination', 'keep-reexport']) }),
    shorthand: 'move',
    examples: ['tug run move-symbol --at src/shop/pricing.py:34:5 --destination shop.discounts', 'tug move --at src/shop/pricing.py:30:5 --destination src/shop/money.py --keep-reexport --verify tests', 'tug move --at src/pricing.ts:7:17 --destination src/discounts.ts --verify tests'],
  },
});
