// The MCP stdio transport tug serves with: one JSON-RPC message per line, and an answer for every line it cannot take
// (parse error, invalid request, over the size limit) instead of dropping it or exiting.
import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The largest message tug reads (10 MiB): a larger line is answered with an error and skipped. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Inside a line that went over the limit: drop bytes until its newline. */
  private skipping = false;
  private closed = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {}

  private readonly onData = (chunk: Buffer) => {
    let rest = chunk;
    for (let newline = rest.indexOf(0x0a); newline !== -1; newline = rest.indexOf(0x0a)) {
      this.take(rest.subarray(0, newline), true);
      rest = rest.subarray(newline + 1);
    }
    if (rest.length > 0) this.take(rest, false);
  };

  private readonly onEnd = () => void this.close();

  private take(bytes: Buffer, complete: boolean): void {
    if (this.skipping) {
      if (complete) this.skipping = false;
      return;
    }
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes > this.maxBytes) {
      this.reset();
      this.skipping = !complete;
      this.reply(null, ErrorCode.InvalidRequest, `message larger than ${this.maxBytes} bytes; it was not read`);
      return;
    }
    if (!complete) return;
    const line = Buffer.concat(this.pending).toString('utf8').replace(/\r$/, '');
    this.reset();
    if (line.trim() !== '') this.dispatch(line);
  }

  private reset(): void {
    this.pending = [];
    this.pendingBytes = 0;
  }

  private dispatch(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.reply(null, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { id?: unknown }).id : undefined;
      const why = Array.isArray(value) ? 'batches are not supported' : 'not a JSON-RPC 2.0 request, notification or response';
      this.reply(typeof id === 'string' || typeof id === 'number' ? id : null, ErrorCode.InvalidRequest, `Invalid Request: ${why}`);
      return;
    }
    this.onmessage?.(parsed.data);
  }

  private reply(id: string | number | null, code: number, message: string): void {
    this.output.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`);
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.once('end', this.onEnd);
    this.input.on('error', (error: Error) => this.onerror?.(error));
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    const text = `${serialized(message)}\n`;
    if (this.output.write(text)) return;
    await new Promise<void>((resolve) => this.output.once('drain', resolve));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.pause();
    this.onclose?.();
  }
}

/** Results sent again and again unchanged (tools/list: ~240 KB), with their JSON text made once. */
const texts = new WeakMap<object, string>();

/** Marks `result` as never changing: this transport then sends the JSON text made now (or given: `result`'s own JSON). */
export function sentUnchanged<T extends object>(result: T, text: string = JSON.stringify(result)): T {
  texts.set(result, text);
  return result;
}

function serialized(message: JSONRPCMessage): string {
  const result = 'result' in message ? texts.get(message.result) : undefined;
  if (result === undefined) return JSON.stringify(message);
  // The result first (where the SDK puts it), then the rest of the message: the same JSON, its text made once.
  const { result: _result, ...rest } = message as Record<string, unknown>;
  const others = JSON.stringify(rest);
  return `{"result":${result}${others === '{}' ? '' : `,${others.slice(1, -1)}`}}`;
}
