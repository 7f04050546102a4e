import { pino, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';
import pretty from 'pino-pretty';

export type { Logger } from 'pino';

/** The levels LOG_LEVEL takes, quietest last. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const satisfies readonly LevelWithSilent[];
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LoggerOptions {
  /** what the process (or part) is: collector, aggregator, api, or several joined by `+` */
  role: string;
  /** default info */
  level?: LogLevel;
  /**
   * Where the lines go (tests capture them); default stdout, as JSON lines, or as human lines
   * when stdout is a terminal.
   */
  destination?: DestinationStream;
}

/**
 * What no log line may carry, whatever a caller passes: credentials (passwords, tokens,
 * cookies, authorization headers) and client addresses. A safety net: the service's own lines
 * name none of them.
 */
const REDACT = [
  'password',
  'token',
  'cookie',
  'authorization',
  'ip',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  'headers["x-forwarded-for"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-forwarded-for"]',
  'req.ip',
  'req.remoteAddress',
  '*.password',
  '*.token',
  '*.cookie',
  '*.authorization',
  '*.ip',
];

/**
 * The one logger of a process: JSON lines `{"level":"info","time":"…","role":"api","msg":"…"}`
 * (plus the fields a line adds, e.g. `request_id`), or human lines on a terminal.
 */
export function createLogger(options: LoggerOptions): Logger {
  const destination = options.destination ?? (process.stdout.isTTY ? pretty({ colorize: true, sync: true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }) : pino.destination({ sync: true }));
  return pino(
    {
      level: options.level ?? 'info',
      base: { role: options.role },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT, censor: '[redacted]' },
    },
    destination,
  );
}
