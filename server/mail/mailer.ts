import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { newId } from '../db/ids.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** Where mail goes, for the start-up banner: `smtp://host:port` or the outbox directory. */
  readonly target: string;
  send(message: MailMessage): Promise<void>;
}

/**
 * Outgoing mail. With `SMTP_URL` (e.g. `smtp://user:pass@mail.example:587`, `smtps://…`)
 * nodemailer delivers it; without, each message is written to `DATA_DIR/outbox/` as an `.eml`
 * file so the demo works offline. The sender is `MAIL_FROM`.
 */
export function createMailer(opts: { smtpUrl?: string; outboxDir: string; from: string }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    const url = new URL(opts.smtpUrl);
    return {
      target: `${url.protocol}//${url.host}`,
      async send(message) {
        await transport.sendMail({ from: opts.from, ...message });
      },
    };
  }
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    target: opts.outboxDir,
    async send(message) {
      const info = await stream.sendMail({ from: opts.from, ...message });
      mkdirSync(opts.outboxDir, { recursive: true, mode: 0o700 });
      const file = join(
        opts.outboxDir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${newId('mail')}.eml`,
      );
      writeFileSync(file, info.message as Buffer, { mode: 0o600 });
    },
  };
}
