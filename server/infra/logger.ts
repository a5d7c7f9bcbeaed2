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
    destination,
  );
}

export const silentLogger = (): Logger => pino({ level: 'silent' });
