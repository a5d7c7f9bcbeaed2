import pino, { type Logger } from 'pino';
import { safeError } from './log-safe-error.ts';

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
      timestamp: pino.stdTimeFunctions.isoTime,
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
