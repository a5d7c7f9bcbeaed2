import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, mailMessages } from '../../db/engine/schema.ts';
import { createMailer } from '../../mail/mailer.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';
import { renderLeadAlert } from './alert-mail.ts';
import type { DeliveryDeps } from './deps.ts';
import { runDeliveryOnce } from './worker.ts';

interface Captured {
  from: string | false;
  to: string[];
  raw: string;
}

async function startSmtpCapture() {
  const messages: Captured[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : false,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

async function firmWithLead(alertEmails: string[]) {
  const f = await t.seed.firm();
  await t.database.db.update(accounts).set({ alertEmails }).where(eq(accounts.id, f.account.id));
  const embed = (
    await (
      await t.json(
        '/v1/api/license/activate',
        { licenseKey: f.publishableKey },
        { origin: 'https://smithlaw.com' },
      )
    ).json()
  ).token as string;
  const result = await (
    await t.json(
      '/v1/api/calc/estimate',
      { calculator: 'estate-tax', state: 'NY', inputs: { estateValue: 9_000_000 } },
      { authorization: `Bearer ${embed}` },
    )
  ).json();
  const res = await t.json(
    '/v1/api/leads',
    {
      resultId: result.resultId,
      calculator: 'estate-tax',
      name: 'Zoë <b>Ødegård</b>',
      email: 'zoe@example.com',
      phone: '+1 555 010 2030',
      state: 'NY',
      consent: true,
      consentText: 'I agree to be contacted.',
    },
    { authorization: `Bearer ${embed}`, 'idempotency-key': `mail-${f.account.id}` },
  );
  expect(res.status).toBe(201);
  return { ...f, leadId: (await res.json()).leadId as string };
}

describe('lead alert mails', () => {
  it('reach a local SMTP server once, with text and HTML parts, the lead, the headline figure and a link', async () => {
    const smtp = await startSmtpCapture();
    const mailer = createMailer({ smtpUrl: smtp.url, outboxDir: '/nonexistent' });
    const deps: DeliveryDeps = { ...t.services.delivery, mailer };
    try {
      const f = await firmWithLead(['partner@smithlaw.example', 'intake@smithlaw.example']);
      expect((await runDeliveryOnce(deps)).mails).toBe(1);
      expect((await runDeliveryOnce(deps)).mails).toBe(0);
      expect(smtp.messages).toHaveLength(1);
      const [mail] = smtp.messages;
      expect(mail!.to).toEqual(['partner@smithlaw.example', 'intake@smithlaw.example']);
      const raw = mail!.raw.replace(/=\r?\n/g, '');
      expect(raw).toMatch(/Content-Type: text\/plain/);
      expect(raw).toMatch(/Content-Type: text\/html/);
      expect(raw).toMatch(/Subject: (=\?UTF-8\?Q\?)?New[ _]lead/);
      expect(raw).toContain('zoe@example.com');
      expect(raw).toContain('+1 555 010 2030');
      expect(raw).toContain('Estate tax');
      expect(raw).toMatch(/Total estate tax: \$\d/);
      // The main figures behind the headline, not only the total.
      expect(raw).toMatch(/Taxable estate\s+\$[\d,]+/);
      expect(raw).toMatch(/State estate tax\s+\$[\d,]+/);
      expect(raw).toMatch(/Federal estate tax\s+\$[\d,]+/);
      expect(raw).toMatch(/\$\d/);
      expect(raw).toContain(`/portal/leads/${f.leadId}`);
      expect(raw).toContain('&lt;b&gt;'); // the name is escaped in HTML, never markup
      expect(raw).not.toMatch(/<img/i);
      const [row] = await t.database.db.select().from(mailMessages).where(eq(mailMessages.leadId, f.leadId));
      expect(row).toMatchObject({ status: 'sent', attempts: 1, filePath: null });
    } finally {
      mailer.close();
      await smtp.close();
    }
  });

  it('retries when the SMTP server is down, and a crashed send is sent again after its lease', async () => {
    const smtp = await startSmtpCapture();
    const down = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', outboxDir: '/nonexistent' });
    const up = createMailer({ smtpUrl: smtp.url, outboxDir: '/nonexistent' });
    try {
      const f = await firmWithLead(['partner@smithlaw.example']);
      await runDeliveryOnce({ ...t.services.delivery, mailer: down });
      const [failed] = await t.database.db
        .select()
        .from(mailMessages)
        .where(eq(mailMessages.leadId, f.leadId));
      expect(failed).toMatchObject({ status: 'pending', attempts: 1 });
      expect(failed!.lastError).toBeTruthy();
      // A claim that never finished (the process died mid-send): the lease runs out, the mail goes.
      await t.database.db
        .update(mailMessages)
        .set({ lockedUntil: new Date(t.clock.now().getTime() + 60_000), attempts: 2 })
        .where(eq(mailMessages.id, failed!.id));
      t.clock.advance(5 * 60_000);
      await runDeliveryOnce({ ...t.services.delivery, mailer: up });
      // Quoted-printable soft line breaks may fall anywhere in the link: undo them first.
      expect(smtp.messages.filter((m) => m.raw.replace(/=\r?\n/g, '').includes(f.leadId))).toHaveLength(1);
    } finally {
      down.close();
      up.close();
      await smtp.close();
    }
  });

  it('without SMTP_URL writes the mail to DATA_DIR/outbox (0600), and sends none for firms without alert addresses', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'svc-outbox-')), 'outbox');
    const mailer = createMailer({ outboxDir: dir });
    const deps: DeliveryDeps = { ...t.services.delivery, mailer };
    await firmWithLead([]);
    await runDeliveryOnce(deps);
    const f = await firmWithLead(['partner@smithlaw.example']);
    await runDeliveryOnce(deps);
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    const path = join(dir, files[0]!);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const text = readFileSync(path, 'utf8').replace(/=\r?\n/g, '');
    expect(text).toContain('multipart/alternative');
    expect(text).toContain(f.leadId);
    const [row] = await t.database.db.select().from(mailMessages).where(eq(mailMessages.leadId, f.leadId));
    expect(row!.filePath).toBe(path);
  });
});

describe('names with line breaks in the plain-text part', () => {
  const forged = 'Your account is locked: https://evil.example/unlock';
  it.each([
    ['CR LF', '\r\n\r\n'],
    ['LF', '\n'],
    ['CR', '\r'],
    ['line separator', '\u2028'],
    ['next line', '\u0085'],
  ])('a firm or lead name with %s forges no line of its own', (_what, nl) => {
    const mail = renderLeadAlert({
      firmName: `Acme Law${nl}${forged}`,
      lead: { name: `Ann${nl}${forged}`, email: 'ann@example.com', calculator: 'estate-tax' },
      result: null,
      link: 'https://portal.example/leads/lead_1',
    });
    for (const line of mail.text.split('\n')) expect(line.startsWith('Your account')).toBe(false);
    expect(mail.subject).not.toMatch(/[\r\n\u2028\u0085]/);
    expect(mail.text).toContain(`Acme Law ${forged}`);
  });
});

describe('visitor text in alert mails', () => {
  it('is defanged in the subject, the text part and the HTML part: no visitor URL can be followed', () => {
    const mail = renderLeadAlert({
      firmName: 'Smith & Søn',
      lead: {
        leadId: 'lead_1',
        name: 'Claim at https://spam.example/win or www.pills.example',
        email: 'x@example.com',
        calculator: 'rmd',
        createdAt: '2026-03-01T12:00:00.000Z',
      },
      result: null,
      link: 'http://127.0.0.1:8787/portal/leads/lead_1',
    });
    for (const part of [mail.subject, mail.text, mail.html]) {
      expect(part).toContain('hxxps://spam[.]example/win');
      expect(part).toContain('www[.]pills[.]example');
      expect(part).not.toMatch(/https:\/\/spam|spam\.example|pills\.example/);
    }
    // The firm's own link to the portal stays a link.
    expect(mail.html).toContain('<a href="http://127.0.0.1:8787/portal/leads/lead_1">');
  });

  it('is escaped once in the HTML part, which keeps its own markup', () => {
    const mail = renderLeadAlert({
      firmName: 'Smith & Søn',
      lead: {
        name: `<img src=x onerror=alert(1)> "Ann" O'Neil`,
        email: 'ann@example.com',
        calculator: 'rmd',
      },
      result: null,
      link: 'https://portal.example/leads/lead_1?a=1&b=2',
    });
    expect(mail.html).toContain('<p>Smith &amp; Søn has a new lead');
    expect(mail.html).toContain('<td>&lt;img src=x onerror=alert(1)&gt; &quot;Ann&quot; O&#39;Neil</td>');
    expect(mail.html).not.toMatch(/<img|&amp;amp;|&amp;lt;/);
    expect(mail.html).toContain(
      '<a href="https://portal.example/leads/lead_1?a=1&amp;b=2">Open the lead</a>',
    );
    expect(mail.html).toContain('<tr><th align="left" style="padding-right:16px">Name</th>');
  });
});
