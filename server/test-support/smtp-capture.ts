import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  to: string[];
  raw: string;
  messageId: string | null;
}

/**
 * A local SMTP server that keeps every message. `delayMs` makes it slow: each round trip
 * (greeting, MAIL FROM, RCPT TO, end of DATA) waits that long before answering.
 */
export async function startSmtpCapture(opts: { delayMs?: number } = {}) {
  const messages: CapturedMail[] = [];
  const slow = (callback: () => void) => setTimeout(callback, opts.delayMs ?? 0);
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect: (_session, callback) => slow(() => callback()),
    onMailFrom: (_address, _session, callback) => slow(() => callback()),
    onRcptTo: (_address, _session, callback) => slow(() => callback()),
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () =>
        slow(() => {
          const raw = Buffer.concat(chunks).toString('utf8');
          messages.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            messageId: /^Message-ID:\s*(\S+)/im.exec(raw)?.[1] ?? null,
          });
          callback();
        }),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
