// rust-analyzer's snippet text edits mark where an editor would put the cursor ($0) and what a person would type over
// (${1:name}); tug keeps the default text and drops the markers by parsing the snippet grammar, so a `$` or `}` that is
// code (escaped by rust-analyzer) is never mistaken for a marker.
import { TugError } from '../core/errors.js';

/** A snippet whose meaning needs a person (a choice, a variable): the assist is refused rather than half-applied. */
export class SnippetNeedsInput extends Error {}

/** The text a snippet inserts when every placeholder keeps its default and every tab stop stays empty. */
export function snippetText(snippet: string): string {
  const parser = new Parser(snippet);
  const text = parser.sequence(false);
  if (parser.at < snippet.length) throw new TugError('InternalError', `rust-analyzer sent an unbalanced snippet: ${JSON.stringify(snippet)}`, { details: { snippet } });
  return text;
}

class Parser {
  at = 0;
  constructor(private readonly source: string) {}

  /** Text up to the end (or, inside a placeholder, up to its closing brace, left unconsumed). */
  sequence(nested: boolean): string {
    let out = '';
    while (this.at < this.source.length) {
      const char = this.source[this.at]!;
      if (char === '\\') {
        const next = this.source[this.at + 1];
        // The grammar escapes only `$`, `}` and `\` (and `,` `|` inside choices); any other backslash is code.
        if (next === '$' || next === '}' || next === '\\') {
          out += next;
          this.at += 2;
        } else {
          out += char;
          this.at += 1;
        }
        continue;
      }
      if (char === '}' && nested) return out;
      if (char === '$') {
        out += this.marker();
        continue;
      }
      out += char;
      this.at += 1;
    }
    return out;
  }

  /** `$1`, `${1}`, `${1:default}`, `${1|a,b|}`, `$name`; a `$` that starts none of them is literal text. */
  private marker(): string {
    const rest = this.source.slice(this.at + 1);
    const plain = /^\d+/.exec(rest);
    if (plain) {
      this.at += 1 + plain[0].length;
      return '';
    }
    const braced = /^\{(\d+)([:|}])/.exec(rest);
    if (braced) {
      this.at += 1 + braced[0].length;
      if (braced[2] === '}') return '';
      if (braced[2] === '|') throw new SnippetNeedsInput(`a choice between values at tab stop ${braced[1]}`);
      const inner = this.sequence(true);
      if (this.source[this.at] !== '}') throw new TugError('InternalError', `rust-analyzer sent an unclosed placeholder: ${JSON.stringify(this.source)}`, { details: { snippet: this.source } });
      this.at += 1;
      return inner;
    }
    if (/^\{?[A-Za-z_]/.test(rest)) throw new SnippetNeedsInput(`a snippet variable (${rest.slice(0, 20)})`);
    this.at += 1;
    return '$';
  }
}
