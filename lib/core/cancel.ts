// Cancellation: a caller's AbortSignal (MCP notifications/cancelled) turns into one TugError at the next safe point.
import { TugError } from './errors.js';

export function throwIfCancelled(signal: AbortSignal | undefined, step: string): void {
  if (!signal?.aborted) return;
  throw new TugError('Cancelled', `cancelled by the caller ${step}; nothing was committed or written`, { details: { step } });
}
