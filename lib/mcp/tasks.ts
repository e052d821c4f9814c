// MCP tasks (protocol 2025-11-25, experimental in the SDK): a client that asks for a task on a long tool gets a handle
// at once, polls its status (progress keeps coming), cancels it or fetches the result later; other clients see no change.
import type { z } from 'zod';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js';
import type { Result, Task } from '@modelcontextprotocol/sdk/types.js';
import type { Operation } from '../ops/operation.js';

/** Tools that can run long without being refactors that verify: the check itself and a project command. */
const LONG_TOOLS = new Set(['tug_verify', 'tug_run_command']);

/** Whether a tool takes a task: every change that verifies in a sandbox (it has `verify`), tug_verify and tug_run_command. */
export function runsAsTask(operation: Operation): boolean {
  const shape = (operation.input as unknown as z.ZodObject).shape as Record<string, unknown> | undefined;
  return LONG_TOOLS.has(operation.tool) || (shape !== undefined && 'verify' in shape);
}

/** How long a finished task's result is kept when the client names no ttl (it may ask for another), and how often to poll. */
export const DEFAULT_TTL_MS = 60 * 60 * 1000;
export const POLL_INTERVAL_MS = 1000;

/**
 * The SDK's in-memory store, plus what it lacks for tug: `tasks/cancel` only marks the task cancelled, so the running
 * call's AbortSignal is aborted here too (the same path a notifications/cancelled takes: checks killed, lock freed,
 * nothing written). Cleanup timers do not keep the process alive once the client has gone.
 */
export class TugTaskStore extends InMemoryTaskStore {
  private readonly running = new Map<string, AbortController>();

  /** The signal of a task's run; aborted by tasks/cancel. */
  track(taskId: string): AbortSignal {
    const controller = new AbortController();
    this.running.set(taskId, controller);
    return controller.signal;
  }

  /** Stores a finished run's result, unless the task was cancelled meanwhile (its status stays cancelled). */
  async finish(taskId: string, result: Result & { isError?: boolean }, sessionId?: string): Promise<void> {
    const controller = this.running.get(taskId);
    this.running.delete(taskId);
    if (controller?.signal.aborted) return;
    // A tool result with isError is a failed task (the 2025-11-25 spec); tasks/result still returns its error envelope.
    await super.storeTaskResult(taskId, result.isError ? 'failed' : 'completed', result, sessionId).catch(() => undefined);
    this.unrefTimers();
  }

  override async updateTaskStatus(taskId: string, status: Task['status'], statusMessage?: string, sessionId?: string): Promise<void> {
    await super.updateTaskStatus(taskId, status, statusMessage, sessionId);
    if (status === 'cancelled') this.running.get(taskId)?.abort(new Error('the client cancelled the task'));
    this.unrefTimers();
  }

  override async createTask(...args: Parameters<InMemoryTaskStore['createTask']>): Promise<Task> {
    const task = await super.createTask(...args);
    this.unrefTimers();
    return task;
  }

  /** The SDK keeps a timer per task for its ttl: none may hold a server whose client closed the connection. */
  private unrefTimers(): void {
    for (const timer of (this as unknown as { cleanupTimers?: Map<string, NodeJS.Timeout> }).cleanupTimers?.values() ?? []) timer.unref?.();
  }

  /** A running task's latest progress line, shown by tasks/get as its statusMessage. */
  note(taskId: string, message: string): void {
    if (!this.running.has(taskId) || this.running.get(taskId)!.signal.aborted) return;
    void super.updateTaskStatus(taskId, 'working', message).catch(() => undefined);
  }

  /** Ends every run still going (the connection closed). */
  stopAll(): void {
    for (const controller of this.running.values()) controller.abort(new Error('the connection closed'));
    this.running.clear();
    this.cleanup();
  }
}
