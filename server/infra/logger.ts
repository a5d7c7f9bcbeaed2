import pino, { type Logger } from 'pino';
import { safeError } from './log-safe-error.ts';

/** Past this many characters a turn's lines are written at once instead of at the turn's end. */
const BATCH_CHARS = 64 * 1024;

/**
 * Standard output, one synchronous write per event-loop turn. The lines logged in a turn (under
 * load, the access lines of every request the turn answered) are collected and handed to
 * `pino.destination({ sync: true })` together in a `setImmediate` after it, or at once past
 * 64 KB: one `write(2)` for many requests instead of one per request, and no write on libuv's
 * thread pool. Whatever is pending is written synchronously when the process exits (`process.exit`,
 * a signal the server handles, an uncaught exception) and before the server prints to the console
 * itself (`flushLogs`), so lines keep their order. Only a SIGKILL (or a crash of the runtime
 * itself) loses lines: those of the turn then running. One per process, shared by every logger.
 */
class TurnBatchedOutput implements pino.DestinationStream {
  private pending = '';
  private scheduled = false;
  private readonly sink = pino.destination({ dest: 1, sync: true });
  private readonly atTurnEnd = () => {
    this.scheduled = false;
    this.flush();
  };

  constructor() {
    process.on('exit', () => this.flush());
  }

  write(line: string): void {
    this.pending += line;
    if (this.pending.length >= BATCH_CHARS) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.atTurnEnd);
    }
  }

  /** Writes what is pending now, synchronously. */
  flush(): void {
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    this.sink.write(text);
  }
}

let stdout: TurnBatchedOutput | undefined;

function standardOutput(): TurnBatchedOutput {
  stdout ??= new TurnBatchedOutput();
  return stdout;
}

/** Writes the log lines still pending in this turn (before printing to the console directly). */
export function flushLogs(): void {
  stdout?.flush();
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
    destination ?? standardOutput(),
  );
}

export const silentLogger = (): Logger => pino({ level: 'silent' });
