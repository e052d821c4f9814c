// The framing between a long-lived tug and its git helper process: a JSON header and the byte strings it sizes, over a pipe.

/** A frame: 4 bytes (big-endian) giving the header's length, the header as JSON, then the parts the header sizes. */
export function frame(header: object, parts: readonly Uint8Array[]): Buffer {
  const json = Buffer.from(JSON.stringify({ ...header, sizes: parts.map((p) => p.byteLength) }));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(json.length);
  return Buffer.concat([length, json, ...parts]);
}

/**
 * Cuts a byte stream into frames. Chunks are kept as they come and joined once a whole frame is there (a large
 * output arrives in many chunks; joining at every chunk would copy it over and over).
 */
export class FrameReader {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Bytes the frame being read needs in all, once its header is known. */
  private need = 4;
  private header: { sizes: number[] } & Record<string, unknown> = { sizes: [] };
  private headerEnd = 0;

  constructor(private readonly onFrame: (header: Record<string, unknown>, parts: Buffer[]) => void) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size >= this.need) {
      const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
      this.chunks = [all];
      if (this.headerEnd === 0) {
        const length = all.readUInt32BE(0);
        if (all.length < 4 + length) {
          this.need = 4 + length;
          continue;
        }
        this.header = JSON.parse(all.subarray(4, 4 + length).toString('utf8')) as typeof this.header;
        this.headerEnd = 4 + length;
        this.need = this.headerEnd + this.header.sizes.reduce((sum, n) => sum + n, 0);
        continue;
      }
      const parts: Buffer[] = [];
      let at = this.headerEnd;
      for (const n of this.header.sizes) parts.push(all.subarray(at, (at += n)));
      const rest = all.subarray(at);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.size = rest.length;
      this.headerEnd = 0;
      this.need = 4;
      this.onFrame(this.header, parts);
    }
  }
}
