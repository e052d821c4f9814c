// A package's hand-written declaration file named by its package.json (`types`, `typings`, a `types` condition of
// `exports`) and kept apart from the code (sade's index.d.ts beside src/): the language service does not tie its
// declarations to the JavaScript they describe (the published types describe the built file), so a rename of an export
// or a member leaves them behind while the package's tests stay green. Each mention of the old name there is listed as
// unsure (`declaration_file`), renamed only with include_unsure, so such a rename is never silently partial.
import path from 'node:path';
import type * as TS from 'typescript';
import type { EditRequest } from '../core/patchset.js';
import { lineStarts, positionOf } from '../core/text.js';
import { OffsetMap } from './files.js';
import type { TypeScriptModule } from './load.js';
import { nodeAt } from './occurrences.js';
import type { TsUnsure } from './unsure.js';

export interface PackageDeclarationInput {
  ts: TypeScriptModule;
  paths: ReadonlySet<string>;
  textOf: (file: string) => string | undefined;
  /** The file that declares the renamed symbol. */
  file: string;
  /** The name's syntax tree and its start there. */
  source: TS.SourceFile | undefined;
  start: number | undefined;
  oldName: string;
  newName: string;
  member: boolean;
  /** Files the rename already edits: a declaration file among them was reached by the service or the hand-declared pair. */
  edited: ReadonlySet<string>;
  includeUnsure: boolean;
}

const DECLARATION = /\.d\.[cm]?ts$/;

/** The unsure places, and their edits when include_unsure asks for them. */
export function packageDeclarationUnsure(input: PackageDeclarationInput): { unsure: TsUnsure[]; edits: EditRequest[] } {
  const unsure: TsUnsure[] = [];
  const edits: EditRequest[] = [];
  if (!input.member && !declaredAtTopLevel(input.ts, input.source, input.start)) return { unsure, edits };
  for (const file of packageDeclarationFiles(input.paths, input.textOf, input.file)) {
    if (input.edited.has(file)) continue;
    const text = input.textOf(file);
    if (text === undefined || !text.includes(input.oldName)) continue;
    const source = input.ts.createSourceFile(file, text, input.ts.ScriptTarget.Latest, true);
    const map = new OffsetMap(text);
    const bytes = Buffer.from(text, 'utf8');
    const starts = lineStarts(bytes);
    const visit = (node: TS.Node): void => {
      if ((input.ts.isIdentifier(node) || input.ts.isPrivateIdentifier(node)) && node.text === input.oldName) {
        const at = node.getStart(source);
        const byte = map.byteOf(at);
        const { line, col } = positionOf(starts, byte);
        const lineText = text.slice(text.lastIndexOf('\n', at - 1) + 1, text.indexOf('\n', at) === -1 ? undefined : text.indexOf('\n', at)).trim();
        unsure.push({ file, line, col, text: lineText.length > 160 ? `${lineText.slice(0, 157)}...` : lineText, reason: 'declaration_file', renamed: input.includeUnsure });
        if (input.includeUnsure) edits.push({ file, span: { start: byte, end: map.byteOf(node.end) }, old_text: input.oldName, new_text: input.newName });
      }
      input.ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { unsure, edits };
}

/** Whether the name at `start` is declared by a statement of the module itself (a function, class, variable, type). */
function declaredAtTopLevel(ts: TypeScriptModule, source: TS.SourceFile | undefined, start: number | undefined): boolean {
  if (!source || start === undefined) return true;
  const name = nodeAt(ts, source, start);
  if (!ts.isIdentifier(name)) return true;
  const node = name.parent;
  if (ts.isVariableDeclaration(node)) return ts.isVariableDeclarationList(node.parent) && ts.isVariableStatement(node.parent.parent) && ts.isSourceFile(node.parent.parent.parent);
  if (ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isEnumDeclaration(node)) {
    return ts.isSourceFile(node.parent);
  }
  // An export specifier or an assignment to module.exports/exports names the export itself.
  return ts.isExportSpecifier(node) || ts.isExportAssignment(node) || ts.isPropertyAccessExpression(node);
}

/** The tracked declaration files the package.json nearest above `file` names, in a stable order. */
export function packageDeclarationFiles(paths: ReadonlySet<string>, textOf: (file: string) => string | undefined, file: string): string[] {
  for (let dir = path.posix.dirname(file); ; dir = path.posix.dirname(dir)) {
    const manifest = dir === '.' ? 'package.json' : `${dir}/package.json`;
    if (paths.has(manifest)) {
      let json: unknown;
      try {
        json = JSON.parse(textOf(manifest) ?? '');
      } catch {
        return [];
      }
      const named = new Set<string>();
      const add = (value: unknown) => {
        if (typeof value !== 'string' || !DECLARATION.test(value)) return;
        const resolved = path.posix.normalize(dir === '.' ? value : `${dir}/${value}`);
        if (!resolved.startsWith('../') && !resolved.split('/').includes('node_modules') && paths.has(resolved)) named.add(resolved);
      };
      const walk = (value: unknown) => {
        if (typeof value === 'string') add(value);
        else if (Array.isArray(value)) value.forEach(walk);
        else if (value && typeof value === 'object') Object.values(value).forEach(walk);
      };
      const manifestJson = (json ?? {}) as Record<string, unknown>;
      add(manifestJson['types']);
      add(manifestJson['typings']);
      walk(manifestJson['exports']);
      return [...named].sort();
    }
    if (dir === '.' || dir === '') return [];
  }
}
