// MCP progress for one tools/call: stage messages as they come, and a heartbeat in between, so a client that resets its
// timeout on progress (resetTimeoutOnProgress) never times out while tug works (tests, cargo, sandbox set-up, analysis).
import type { CheckProgress } from '../ops/operation.js';

/** A client's timeout resets on each notification; 2 s keeps far inside any sensible timeout (and the 5 s the issue asks). */
export const HEARTBEAT_MS = 2_000;

export interface CallProgress {
  /** A new stage ("preparing sandbox", "verifying (tests)"): sent at once. */
  stage(message: string): void;
  /** A running check's heartbeat from verification. */
  check(progress: CheckProgress): void;
  stop(): void;
}

/** Sends notifications/progress with an increasing counter; nothing when the request carried no progressToken. */
export function callProgress(send: ((progress: number, message: string) => void) | undefined, now: () => number = Date.now): CallProgress {
  if (!send) return { stage: () => undefined, check: () => undefined, stop: () => undefined };
  const started = now();
  let count = 0;
  let lastSent = started;
  let stage = 'working';
  const emit = (message: string) => {
    count += 1;
    lastSent = now();
    send(count, message);
  };
  const elapsed = () => Math.round((now() - started) / 1000);
  const timer = setInterval(() => {
    if (now() - lastSent >= HEARTBEAT_MS - 100) emit(`${stage} (${elapsed()}s)`);
  }, HEARTBEAT_MS / 2);
  timer.unref?.();
  return {
    stage(message) {
      stage = message;
      emit(message);
    },
    check(p) {
      emit(`${stage}: ${p.check} running for ${p.elapsed_s}s${p.percent === undefined ? '' : `, ${p.percent}% done`} (${elapsed()}s in all)`);
    },
    stop: () => clearInterval(timer),
  };
}
