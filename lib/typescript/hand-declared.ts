// A JavaScript module whose types come from a declaration file written by hand beside it (lib.js with lib.d.ts): the
// compiler resolves every import of the module to the declaration file, so renaming an export in the .js reaches neither
// that file nor the importers, and the rename would look complete while every importer still used the old name.
import path from 'node:path';
import type * as TS from 'typescript';
import { TugError } from '../core/errors.js';
import { nodeAt } from './occurrences.js';
/** Where the symbol is declared (rename-plan.ts's location). */
type Where = { file: string; line: number; col: number };

/** The declaration file the compiler prefers for a JavaScript file of each extension. */
const DECLARATION_OF: Readonly<Record<string, string>> = { '.js': '.d.ts', '.jsx': '.d.ts', '.mjs': '.d.mts', '.cjs': '.d.cts' };

/**
 * UnsafeRefactor when the symbol declared at `start` of `file` (a script of the workspace) is an export of a JavaScript
 * module that has a hand-written declaration file among `scripts`: tug cannot tie the two declarations together, and
 * a rename of one alone leaves the importers behind (found on rehype and sade, docs/QUALITY.md).
 */
export function assertNotHandDeclared(ts: typeof TS, scripts: readonly string[], file: string, source: TS.SourceFile, checker: TS.TypeChecker, start: number, definition: Where): void {
  const ext = path.posix.extname(file);
  const declarations = DECLARATION_OF[ext];
  if (declarations === undefined) return;
  const declarationFile = `${file.slice(0, -ext.length)}${declarations}`;
  if (!scripts.includes(declarationFile)) return;
  const module = checker.getSymbolAtLocation(source);
  const node = nodeAt(ts, source, start);
  const symbol = ts.isIdentifier(node) ? checker.getSymbolAtLocation(node) : undefined;
  if (!module || !symbol) return;
  const exported = checker.getExportsOfModule(module).some((e) => e === symbol || ((e.flags & ts.SymbolFlags.Alias) !== 0 && checker.getAliasedSymbol(e) === symbol));
  if (!exported) return;
  throw new TugError(
    'UnsafeRefactor',
    `${symbol.name} is exported by ${file}, whose types are declared by hand in ${declarationFile}: importers follow ${declarationFile}, which the rename would not reach; rename it in both files and their importers by hand`,
    { details: { reason: 'hand-written declaration file', declaration_file: declarationFile, line: definition.line, col: definition.col }, location: { file, line: definition.line, col: definition.col } },
  );
}
