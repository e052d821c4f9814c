// Re-exports of a moved symbol: the language service's move rewrites imports but leaves `export { x } from './old'` and `export * from './old'` pointing at a module that no longer exports the name; tug points them at the new one.
import path from 'node:path';
import type * as TS from 'typescript';
import { inNodeModules, isScriptFile } from './files.js';
import type { TypeScriptModule } from './load.js';
import { resolveSpecifier, specifierLike } from './move-specifiers.js';
import type { TsWorkspace } from './workspace.js';

export interface Moved {
  file: string;
  destination: string;
  names: readonly string[];
  /** The moved declaration was exported (so `export *` of the old module re-exported it). */
  exported: boolean;
  /** The new module's specifier from a file, styled like `like` (the specifier it wrote for the old module). */
  specifier(from: string, like: string | null): string;
}

/** `toFile` from `fromFile`: like `like` when given, else relative with `.js`-style extensions when `js`. */
export function newSpecifier(fromFile: string, oldFile: string, toFile: string, like: string | null, js: boolean): string {
  const fallback = `./${path.posix.basename(oldFile).replace(/\.[^.]+$/, '')}${js ? '.js' : ''}`;
  return specifierLike(like ?? fallback, oldFile, fromFile, toFile) ?? specifierLike(fallback, oldFile, fromFile, toFile)!;
}

export function exportLine(specifiers: ReadonlyArray<{ name: string; alias?: string | undefined; typeOnly?: boolean }>, specifier: string, typeOnly: boolean, quote: string): string {
  const list = specifiers.map((s) => `${s.typeOnly ? 'type ' : ''}${s.name}${s.alias && s.alias !== s.name ? ` as ${s.alias}` : ''}`).join(', ');
  return `export ${typeOnly ? 'type ' : ''}{ ${list} } from ${quote}${specifier}${quote};`;
}

/** Rewrites, in `after` (the moved texts by file, seeded from the snapshot when absent), every re-export of the moved names. */
export function followReexports(ws: TsWorkspace, ts: TypeScriptModule, after: Map<string, string>, moved: Moved): void {
  for (const file of ws.scripts) {
    if (file === moved.file || file === moved.destination || inNodeModules(file) || !isScriptFile(file)) continue;
    const text = after.get(file) ?? ws.fs.readFile(ws.fs.absolute(file))!;
    if (!/\bexport\b[^;]*\bfrom\b/.test(text)) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const options = ws.containing(file)[0]?.options ?? {};
    const changes: Array<{ start: number; end: number; text: string }> = [];
    for (const statement of source.statements) {
      if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const spec = statement.moduleSpecifier.text;
      if (resolveSpecifier(ws, ts, options, file, spec) !== moved.file) continue;
      const quote = statement.moduleSpecifier.getText(source)[0]!;
      const target = moved.specifier(file, spec);
      const clause = statement.exportClause;
      if (!clause) {
        if (!moved.exported) continue;
        // `export * from './old'` re-exported the names; now they come from the new module.
        changes.push({ start: statement.end, end: statement.end, text: `\n${exportLine(moved.names.map((name) => ({ name })), target, statement.isTypeOnly, quote)}` });
        continue;
      }
      if (!ts.isNamedExports(clause)) continue; // `export * as ns from`: listed unsure, the namespace loses the name
      const leaving = clause.elements.filter((e) => moved.names.includes((e.propertyName ?? e.name).text));
      if (leaving.length === 0) continue;
      const staying = clause.elements.filter((e) => !leaving.includes(e));
      const line = exportLine(leaving.map((e) => ({ name: (e.propertyName ?? e.name).text, alias: e.name.text, typeOnly: e.isTypeOnly })), target, statement.isTypeOnly, quote);
      if (staying.length === 0) {
        changes.push({ start: statement.getStart(source), end: statement.end, text: line });
      } else {
        const kept = staying.map((e) => e.getText(source)).join(', ');
        changes.push({ start: clause.getStart(source), end: clause.end, text: `{ ${kept} }` });
        changes.push({ start: statement.end, end: statement.end, text: `\n${line}` });
      }
    }
    if (changes.length === 0) continue;
    let out = text;
    for (const c of changes.sort((a, b) => b.start - a.start || b.end - a.end)) out = out.slice(0, c.start) + c.text + out.slice(c.end);
    after.set(file, out);
  }
}
