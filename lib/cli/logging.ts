// What tug says on stderr while it works: progress (info) and phase timings (debug), filtered by -v/-q/--log-level and
// written as text or, with --log-format json, one JSON object per line for log collectors.
import type { CliIO } from './io.js';

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
}

export interface LogSettings {
  level: LogLevel;
  format: 'text' | 'json';
}

/**
 * --log-level wins, then -q (errors only) and -v (debug). Without them: progress on a terminal (or with
 * TUG_PROGRESS=1), warnings and errors only when stderr is a pipe, as before these flags existed.
 */
export function logSettings(args: Record<string, unknown>, io: CliIO): LogSettings {
  const format = args['log-format'] === 'json' ? 'json' : 'text';
  if (typeof args['log-level'] === 'string') return { level: args['log-level'] as LogLevel, format };
  if (args['quiet']) return { level: 'error', format };
  if (args['verbose']) return { level: 'debug', format };
  return { level: io.stderrIsTTY || process.env['TUG_PROGRESS'] === '1' ? 'info' : 'warn', format };
}

export function createLogger(settings: LogSettings, io: CliIO): Logger {
  const limit = LOG_LEVELS.indexOf(settings.level);
  return {
    log(level, message, fields = {}) {
      if (LOG_LEVELS.indexOf(level) > limit) return;
      if (settings.format === 'json') io.err(`${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`);
      else io.err(`tug: ${level === 'info' ? '' : `${level}: `}${message}\n`);
    },
  };
}
