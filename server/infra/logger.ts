import pino, { type Logger } from 'pino';
import { safeError } from './log-safe-error.ts';

let stampedMs = Number.NaN;
let stamp = '';

/**
 * pino's `isoTime` (`,"time":"<ISO 8601>"`), the text made once per millisecond: under load a
 * millisecond holds several access lines, and `toISOString` showed at about 1 % of an embed
 * session's CPU in the profile.
 */
function isoTime(): string {
  const now = Date.now();
  if (now !== stampedMs) {
    stampedMs = now;
    stamp = `,"time":"${new Date(now).toISOString()}"`;
  }
  return stamp;
}

/**
 * Structured JSON logs. Credentials never reach a log line: request logging writes only method,
 * path, status and duration, and the redaction list catches credential-shaped fields that a
 * developer might log by mistake.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'svc' },
      timestamp: isoTime,
      // Errors are logged through `safeError`: never SQL parameters or the values a message quotes.
      serializers: { err: safeError, error: safeError, reason: safeError },
      redact: {
        paths: [
          'licenseKey',
          '*.licenseKey',
          'refreshToken',
          '*.refreshToken',
          'accessJwt',
          '*.accessJwt',
          'token',
          '*.token',
          'apiKey',
          '*.apiKey',
          'authorization',
          '*.authorization',
          'headers.authorization',
          'code',
          'codeVerifier',
          '*.codeVerifier',
        ],
        censor: '[redacted]',
      },
    },
    destination ?? standardOutput(),
  );
}

/** The most bytes one write to a pipe is sure to land whole, not mixed with another's (POSIX PIPE_BUF). */
const PIPE_BUF = 4096;

/**
 * Standard output, asynchronous as pino's default, but written at most 4,096 bytes at a time. A
 * cluster's workers and its primary share one standard output, often a pipe to a log collector;
 * writes longer than PIPE_BUF from two processes may interleave mid-line, and pino's default
 * writes up to 16 KB. sonic-boom fills each write with whole lines up to `maxWrite`
 * (https://github.com/pinojs/sonic-boom#readme), so every line up to 4 KB lands whole. A single
 * process pays nothing measurable: under load its log writes carry a few lines each, well under
 * 4 KB (docs/decisions/hot-path.md).
 */
const standardOutput = () => pino.destination({ fd: 1, sync: false, maxWrite: PIPE_BUF });

export const silentLogger = (): Logger => pino({ level: 'silent' });
