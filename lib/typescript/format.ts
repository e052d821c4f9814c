// The formatting settings the language service writes new lines with, read from the file being changed: its line
// ending, its indentation and whether it ends statements with semicolons. The service's defaults (four spaces, a
// semicolon after every statement) otherwise show up as noise in a diff of a file written another way.
import type * as TS from 'typescript';

type TypeScriptModule = typeof TS;

/** The file's own indentation: tabs, or the smallest run of leading spaces on a line of code (not a ` * ` comment line). */
function indentOf(text: string, fallback: number): { convertTabsToSpaces: boolean; indentSize: number; tabSize: number } {
  if (/^\t/m.test(text)) return { convertTabsToSpaces: false, indentSize: 4, tabSize: 4 };
  const sizes = [...text.matchAll(/^( +)([^\s*])/gm)].map((m) => m[1]!.length);
  const size = sizes.length > 0 ? Math.min(...sizes) : fallback;
  return { convertTabsToSpaces: true, indentSize: size, tabSize: size };
}

/** Whether the file leaves semicolons out: no line of code ends with one (a comment's lines are not code). */
function omitsSemicolons(text: string): boolean {
  const code = text.split('\n').map((line) => line.replace(/\/\/.*$/, '').trimEnd()).filter((line) => line && !/^\s*(\*|\/\*)/.test(line));
  return code.length >= 3 && !code.some((line) => line.endsWith(';'));
}

/** Format settings for the service's edits to `text`: its defaults with the file's line ending, indentation and semicolon style. */
export function formatOf(ts: TypeScriptModule, text: string, fallbackIndent = 4): TS.FormatCodeSettings {
  return {
    ...ts.getDefaultFormatCodeSettings(text.includes('\r\n') ? '\r\n' : '\n'),
    ...indentOf(text, fallbackIndent),
    ...(omitsSemicolons(text) ? { semicolons: 'remove' as TS.SemicolonPreference } : {}),
  };
}
