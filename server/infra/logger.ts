import cluster from 'node:cluster';
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
    destination ?? (cluster.isWorker ? workerStdout() : undefined),
  );
}

/** The most bytes one write to a pipe is sure to land whole, not mixed with another's (POSIX PIPE_BUF). */
const PIPE_BUF = 4096;

/**
 * A cluster worker's standard output is its primary's, shared with the other workers, often a pipe
 * to a log collector. pino's default stream writes up to 16 KB at a time, and writes longer than
 * PIPE_BUF from two processes may interleave mid-line. sonic-boom joins whole lines into each write
 * up to its `maxWrite`, so at 4,096 bytes every write is whole lines and lands whole. Still
 * asynchronous, as pino's default is (https://github.com/pinojs/sonic-boom#readme, `maxWrite`).
 */
const workerStdout = () => pino.destination({ fd: 1, sync: false, maxWrite: PIPE_BUF });

export const silentLogger = (): Logger => pino({ level: 'silent' });
