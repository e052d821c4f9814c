// A method that implements a trait defined outside the workspace (`next` of `impl Iterator for X`) cannot be renamed
// or get another signature: the trait cannot follow. rust-analyzer renames it anyway, with every call of the trait's
// method in the workspace (found by the sweep on percent-encoding: `iter.next()` of another type was renamed too).
import type { Location as LspLocation } from 'vscode-languageserver-protocol';
import type { RustAnalyzer } from './lsp-client.js';
import { skipAtom } from './arg-lists.js';
import { lspPositionOfOffset } from './positions.js';

const decoder = new TextDecoder();

/** The `{` of the innermost block around `offset` (strings and comments stepped over), or -1 at the top level. */
function enclosingBrace(text: string, offset: number): number {
  const stack: number[] = [];
  for (let i = 0; i < offset; i++) {
    const past = skipAtom(text, i);
    if (past > i) {
      i = past - 1;
      continue;
    }
    if (text[i] === '{') stack.push(i);
    else if (text[i] === '}') stack.pop();
  }
  return stack.at(-1) ?? -1;
}

export interface ForeignTrait {
  trait: string;
}

/**
 * The foreign trait the fn defined at `offset` of `bytes` implements, or null: the enclosing block's header is read as
 * `impl … Trait… for Type`, and rust-analyzer's definition of the trait's name there must lie outside the workspace.
 */
export async function foreignTraitOf(server: RustAnalyzer, bytes: Uint8Array, offset: number, uri: string, inWorkspace: (uri: string) => boolean): Promise<ForeignTrait | null> {
  const text = decoder.decode(bytes);
  const index = Buffer.from(bytes).subarray(0, offset).toString('utf8').length;
  const brace = enclosingBrace(text, index);
  if (brace < 0) return null;
  const headerStart = Math.max(text.lastIndexOf(';', brace - 1), text.lastIndexOf('}', brace - 1), text.lastIndexOf('{', brace - 1)) + 1;
  const header = text.slice(headerStart, brace);
  const impl = /\bimpl\b\s*(<[^{]*?>)?\s*!?\s*([\w:]+(?:<[^{]*?>)?)\s+for\s/.exec(header);
  if (!impl) return null;
  const path = impl[2]!.replace(/<.*$/, '');
  const name = path.split('::').at(-1)!;
  const nameIndex = headerStart + impl.index + impl[0].indexOf(impl[2]!) + path.length - name.length;
  const at = Buffer.byteLength(text.slice(0, nameIndex));
  const position = lspPositionOfOffset(bytes, at, server.encoding);
  const found = (await server.request<LspLocation[] | LspLocation | null>('textDocument/definition', { textDocument: { uri }, position }).catch(() => null)) ?? [];
  const locations = Array.isArray(found) ? found : [found];
  if (locations.length === 0 || locations.some((l) => inWorkspace(l.uri))) return null;
  return { trait: path };
}
