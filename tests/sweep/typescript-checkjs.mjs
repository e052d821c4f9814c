// An independent check for the TypeScript sweep on JavaScript projects without a tsconfig.json, whose tests may not
// run every file a rename touches (benchmarks, scripts, tests the test command leaves out): the compiler's diagnostics
// of the changed files, checked as JavaScript (checkJs), counted by code before and after. A new "cannot find name"
// or "duplicate identifier" where there was none is a rename that left a place behind or captured one.
import path from 'node:path';
import { createRequire } from 'node:module';
import { sourceFiles } from './typescript-positions.mjs';

const require = createRequire(import.meta.url);
// The codes that say a name no longer resolves or is declared twice (the others of checkJs are noise in plain JS).
const NAME_CODES = new Set([2304, 2552, 2300, 2451, 2440, 2393, 2349, 2488, 2305, 2614, 2724, 2551, 18004]);

/** Per changed file, how many diagnostics of each name code the checker reports in the project at `dir`. */
export function nameDiagnostics(dir, files) {
  const ts = require('typescript');
  const program = ts.createProgram(
    sourceFiles(dir).map((f) => path.join(dir, f)),
    { allowJs: true, checkJs: true, noEmit: true, target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, jsx: ts.JsxEmit.Preserve, skipLibCheck: true },
  );
  const counts = {};
  for (const file of files) {
    const source = program.getSourceFile(path.join(dir, file));
    if (!source) continue;
    for (const d of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      if (!NAME_CODES.has(d.code)) continue;
      const key = `${file} TS${d.code}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
  }
  return counts;
}

/** The keys whose count grew from `before` to `after`, as "file TScode +n" strings. */
export function grown(before, after) {
  return Object.entries(after)
    .filter(([key, n]) => n > (before[key] ?? 0))
    .map(([key, n]) => `${key} +${n - (before[key] ?? 0)}`);
}
