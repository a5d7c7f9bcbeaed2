import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

export interface OutgoingMail {
  /** Our id for the message; also the Message-ID's local part and the outbox file name. */
  id: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** One plain address, already validated (a lead alert's visitor); never a display name. */
  replyTo?: string;
}

export interface Mailer {
  kind: 'smtp' | 'files';
  /** Sends (or writes) one message; returns the file written when there is no SMTP server. */
  send(mail: OutgoingMail): Promise<{ filePath: string | null }>;
  close(): void;
}

/**
 * nodemailer over `SMTP_URL`, or, without one, RFC 5322 files in `outboxDir` (0600 in a 0700
 * directory) so the demo works offline. The Message-ID is derived from our id: a message sent again
 * after a crash carries the same Message-ID (mail clients fold such duplicates) and overwrites the
 * same file.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export function createMailer(opts: { smtpUrl?: string | undefined; outboxDir: string }): Mailer {
  const message = (mail: OutgoingMail) => ({
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
    messageId: `<${mail.id}@svc>`,
  });
  if (opts.smtpUrl) {
    // Nodemailer waits up to 2 min for a connection and 10 min on a silent socket: an SMTP server
    // that accepts and never answers would hold the mail loop that long.
    const transport = nodemailer.createTransport({ url: opts.smtpUrl, ...SMTP_TIMEOUTS });
    return {
      kind: 'smtp',
      async send(mail) {
        await transport.sendMail(message(mail));
        return { filePath: null };
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'files',
    async send(mail) {
      const info = await transport.sendMail(message(mail));
      mkdirSync(opts.outboxDir, { recursive: true, mode: 0o700 });
      chmodSync(opts.outboxDir, 0o700);
      const filePath = join(opts.outboxDir, `${mail.id}.eml`);
      writeFileSync(filePath, info.message as Buffer, { mode: 0o600 });
      return { filePath };
    },
    close: () => transport.close(),
  };
}

/** `DATA_DIR/outbox`, where mails go without SMTP. */
export const outboxDirOf = (dataDir: string) => join(dataDir, 'outbox');
