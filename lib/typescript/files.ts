// Which workspace files the TypeScript adapter owns, and the byte ↔ UTF-16 offset math between tug (UTF-8 bytes) and the language service (JavaScript strings).

/** Script files the TypeScript adapter renames in: TypeScript and JavaScript in all their module flavours. */
export const SCRIPT_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'] as const;

export function isScriptFile(file: string): boolean {
  return SCRIPT_EXTENSIONS.some((ext) => file.endsWith(ext));
}

/** Files the service reads besides scripts: configs, package manifests, JSON modules. */
export function isServiceFile(file: string): boolean {
  return isScriptFile(file) || file.endsWith('.json');
}

/** A path with a `node_modules` folder in it: installed packages, never edited, read from disk. */
export function inNodeModules(file: string): boolean {
  return /(^|\/)node_modules(\/|$)/.test(file);
}

const encoder = new TextEncoder();

/** UTF-16 ↔ UTF-8 offsets of one text; cheap for ASCII text, which most source is. */
export class OffsetMap {
  private readonly ascii: boolean;
  constructor(readonly text: string) {
    // eslint-disable-next-line no-control-regex
    this.ascii = /^[\x00-\x7f]*$/.test(text);
  }

  byteOf(utf16: number): number {
    return this.ascii ? utf16 : encoder.encode(this.text.slice(0, utf16)).length;
  }

  utf16Of(byte: number): number {
    if (this.ascii) return byte;
    const bytes = encoder.encode(this.text);
    return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(0, byte)).length;
  }
}
