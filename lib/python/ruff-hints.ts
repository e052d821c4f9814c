// The compilation hints tug gives V8 for ruff's WebAssembly (see ruff-wasm.ts): which functions to compile when the
// module compiles rather than when first called.

/** Eager, baseline tier, baseline as top tier: compiled with Liftoff when the module compiles, never optimized. */
const EAGER_BASELINE = 2 | (1 << 2) | (1 << 4);

/**
 * The module with a `compilationHints` custom section (V8's experimental format: one byte per own function) placed
 * where V8 reads it, between the function and code sections; null when the module's layout is not as expected.
 */
export function withHints(wasm: Uint8Array, functions: readonly number[]): Uint8Array | null {
  let at = 8;
  const leb = (): number => {
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = wasm[at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  };
  let declared = -1;
  while (at < wasm.length) {
    const sectionStart = at;
    const id = wasm[at++]!;
    const size = leb();
    const body = at;
    if (id === 3) declared = leb();
    if (id === 10) {
      if (declared < 0) return null;
      const hints = new Uint8Array(declared);
      for (const index of functions) {
        if (!Number.isInteger(index) || index < 0 || index >= declared) return null;
        hints[index] = EAGER_BASELINE;
      }
      const name = Buffer.from('compilationHints', 'latin1');
      const payload = Buffer.concat([uleb(name.length), name, uleb(declared), hints]);
      return Buffer.concat([wasm.subarray(0, sectionStart), Buffer.from([0]), uleb(payload.length), payload, wasm.subarray(sectionStart)]);
    }
    at = body + size;
  }
  return null;
}

function uleb(value: number): Buffer {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value) byte |= 0x80;
    bytes.push(byte);
  } while (value);
  return Buffer.from(bytes);
}
