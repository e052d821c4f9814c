// The formatting settings the language service writes new lines with, read from the file being changed: its line
// ending, its indentation and whether it ends statements with semicolons. The service's defaults (four spaces, a
// semicolon after every statement) otherwise show up as noise in a diff of a file written another way.
import type * as TS from 'typescript';
import type { TypeScriptModule } from './load.js';

/**
 * The file's own indentation: tabs, or the step its lines of code indent by most often (a line indented deeper than
 * the one before adds its difference; ties go to the smaller). ` * ` comment lines do not count, and the odd line of a
 * multi-line string (commander's one-space lines) is outvoted.
 */
function indentOf(text: string, fallback: number): { convertTabsToSpaces: boolean; indentSize: number; tabSize: number } {
  if (/^\t/m.test(text)) return { convertTabsToSpaces: false, indentSize: 4, tabSize: 4 };
  const steps = new Map<number, number>();
  let previous = 0;
  for (const m of text.matchAll(/^( *)([^\s*])/gm)) {
    const width = m[1]!.length;
    if (width > previous) steps.set(width - previous, (steps.get(width - previous) ?? 0) + 1);
    previous = width;
  }
  const best = [...steps].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
  const size = best ? best[0] : fallback;
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
