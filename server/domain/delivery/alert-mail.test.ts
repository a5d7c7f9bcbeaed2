import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, auditEvents, mailMessages } from '../../db/engine/schema.ts';
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
      const raw = quotedPrintable(mail!.raw);
      expect(raw).toMatch(/Content-Type: text\/plain/);
      expect(raw).toMatch(/Content-Type: text\/html/);
      expect(header(mail!.raw, 'Subject')).toBe(
        'New estate-tax enquiry: Zoë <b>Ødegård</b>, New York, estate of $9 million',
      );
      // A reply writes to the visitor; the e-mail and phone are links; the page is named; the
      // time is UTC until the firm sets its zone, and says so.
      expect(header(mail!.raw, 'Reply-To')).toBe('zoe@example.com');
      expect(raw).toContain('<a href="mailto:zoe@example.com">zoe@example.com</a>');
      expect(raw).toContain('<a href="tel:+15550102030">+1 555 010 2030</a>');
      expect(raw).toContain('1 March 2026, 12:00 PM UTC (set your time zone in Settings → Firm)');
      expect(raw).toContain('Reply to this mail to write to them.');
      // The firm's rating of the lead, with its reasons (issue 40), and a word on keeping it to the firm.
      expect(raw).toMatch(/Priority\s+high\r?\n/);
      expect(raw).toMatch(/Why\s+Estate of \$9M .*New York/);
      expect(raw).toContain('The priority lines are for your firm: leave them out of a reply.');
      expect(raw).toMatch(/<th[^>]*>Priority<\/th><td>(high|medium|low)<\/td>/);
      expect(raw).toContain('zoe@example.com');
      expect(raw).toContain('+1 555 010 2030');
      expect(raw).toContain('Estate tax');
      expect(raw).toMatch(/Total estate tax: \$\d/);
      // The main figures behind the headline, not only the total, which is not said twice.
      expect(raw).not.toMatch(/Total estate tax\s+\$/);
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

/** The message with quoted-printable undone (soft breaks, =XX bytes as UTF-8). */
const quotedPrintable = (raw: string): string =>
  Buffer.from(
    raw
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
    'latin1',
  ).toString('utf8');

/** A header's value with RFC 2047 encoded words decoded (nodemailer writes UTF-8 as Q or B words). */
function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  if (!line) return undefined;
  return line
    .slice(name.length + 1)
    .trim()
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_m, kind: string, body: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(body, 'base64').toString('utf8')
        : Buffer.from(
            body
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

describe('alert mails a person can act on', () => {
  it('set Reply-To only for a plain valid address of a live lead: never for a held one, never a second header', async () => {
    const smtp = await startSmtpCapture();
    const mailer = createMailer({ smtpUrl: smtp.url, outboxDir: '/nonexistent' });
    try {
      for (const [email, quarantined, expected] of [
        ['ann@example.com', false, 'ann@example.com'],
        ['ann@example.com', true, undefined],
        ['ann@example.com\r\nBcc: all@example.com', false, undefined],
        ['"Evil" <ann@example.com>, boss@firm.com', false, undefined],
        ['ann@example..com', false, undefined],
      ] as const) {
        const mail = renderLeadAlert({
          firmName: 'Smith & Søn',
          lead: { name: 'Ann', email, calculator: 'rmd', quarantined, createdAt: '2026-03-01T12:00:00.000Z' },
          result: null,
          link: 'https://portal.example/leads/lead_1',
        });
        expect(mail.replyTo).toBe(expected);
        await mailer.send({
          id: `m${smtp.messages.length}`,
          from: 'svc@svc.test',
          to: ['partner@smithlaw.example'],
          ...mail,
        });
        const sent = smtp.messages.at(-1)!;
        expect(header(sent.raw, 'Reply-To')).toBe(expected);
        expect(header(sent.raw, 'Bcc')).toBeUndefined();
        expect(sent.to).toEqual(['partner@smithlaw.example']);
      }
    } finally {
      mailer.close();
      await smtp.close();
    }
  });

  it('say when the lead came in, in the firm’s time zone, labelled', () => {
    const mail = renderLeadAlert({
      firmName: 'Smith & Søn',
      lead: {
        name: 'Ann',
        email: 'ann@example.com',
        calculator: 'rmd',
        createdAt: '2026-11-28T13:08:34.279Z',
      },
      result: null,
      link: 'https://portal.example/leads/lead_1',
      timeZone: 'America/New_York',
    });
    expect(mail.text).toContain('28 November 2026, 8:08 AM EST (America/New_York)');
    expect(mail.text).not.toContain('2026-11-28T13:08');
    expect(mail.text).toMatch(/Page\s+—/);
  });

  it('name the page the lead came from: the firm’s own host as it reads, the visitor’s path defanged, never as a link', () => {
    const mail = (page: string) =>
      renderLeadAlert({
        firmName: 'Smith & Søn',
        lead: { name: 'Ann', email: 'ann@example.com', calculator: 'estate-tax', consent: { page } },
        result: null,
        link: 'https://portal.example/leads/lead_1',
      });
    const plain = mail('https://www.smithlaw.com/estate-planning');
    expect(plain.text).toMatch(/Page\s+www\.smithlaw\.com\/estate-planning\n/);
    expect(plain.text.split('\n')[0]).toContain('calculator on www.smithlaw.com/estate-planning.');
    expect(plain.html).not.toContain('href="https://www.smithlaw');
    const crafted = mail('https://www.smithlaw.com/go/https://win.example/claim');
    expect(crafted.text).toMatch(/Page\s+www\.smithlaw\.com\/go\/hxxps:\/\/win\[\.\]example\/claim\n/);
    expect(mail('https://smithlaw.com').text).toMatch(/Page\s+smithlaw\.com\n/);
  });

  it('cut a long name to 60 characters in the subject and the opening line, defanged', () => {
    const name = `Claim at https://spam.example/win ${'very '.repeat(20)}long name`;
    const mail = renderLeadAlert({
      firmName: 'Smith & Søn',
      lead: { name, email: 'x@example.com', calculator: 'estate-tax', state: 'NY' },
      result: null,
      link: 'https://portal.example/leads/lead_1',
    });
    const short = mail.subject.slice('New estate-tax enquiry: '.length).split(', New York')[0]!;
    expect([...short]).toHaveLength(60);
    expect(short).toMatch(/^Claim at hxxps:\/\/spam\[\.\]example\/win very .*…$/);
    expect(mail.text.split('\n')[0]).toContain(short);
  });

  it('are sent to the demo firm’s owner from its first lead, also for a demo firm seeded before that (once); a list the firm emptied stays empty', async () => {
    const { seedDemo } = await import('../demo/seed.ts');
    const { updateAccount } = await import('../accounts/settings.ts');
    const fresh = await createTestContext();
    try {
      const { db } = fresh.database;
      const secret = Buffer.alloc(32, 7);
      const { accountId } = await seedDemo(fresh.services.licensing, secret);
      const [row] = await db.select().from(accounts).where(eq(accounts.id, accountId!));
      expect(row!.alertEmails).toEqual([row!.email]);
      const alerts = async () =>
        (await db.select().from(accounts).where(eq(accounts.id, accountId!)))[0]!.alertEmails;
      const entries = () =>
        db
          .select()
          .from(auditEvents)
          .where(and(eq(auditEvents.accountId, accountId!), eq(auditEvents.action, 'account.updated')));
      // As seeded before the owner got the alerts: an empty list nobody chose.
      await db.update(accounts).set({ alertEmails: [] }).where(eq(accounts.id, accountId!));
      // Two workers start at once: one fills it, and says so in the firm's activity.
      await Promise.all([
        seedDemo(fresh.services.licensing, secret),
        seedDemo(fresh.services.licensing, secret),
      ]);
      expect(await alerts()).toEqual(['demo@svc.test']);
      expect((await entries()).map((e) => [e.actor, e.data])).toEqual([
        ['demo', { before: { alertEmails: '0 addresses' }, after: { alertEmails: '1 addresses' } }],
      ]);
      // The firm empties it on purpose: later starts leave it empty.
      await updateAccount(
        fresh.services.licensing,
        accountId!,
        { alertEmails: [] },
        { actor: 'user:demo@svc.test' },
      );
      await seedDemo(fresh.services.licensing, secret);
      expect(await alerts()).toEqual([]);
      expect(await entries()).toHaveLength(2);
    } finally {
      await fresh.close();
    }
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
    expect(mail.html).toContain('<p>A new enquiry for Smith &amp; Søn: ');
    expect(mail.html).toContain('<td>&lt;img src=x onerror=alert(1)&gt; &quot;Ann&quot; O&#39;Neil</td>');
    expect(mail.html).not.toMatch(/<img|&amp;amp;|&amp;lt;/);
    expect(mail.html).toContain(
      '<a href="https://portal.example/leads/lead_1?a=1&amp;b=2">Open the lead</a>',
    );
    expect(mail.html).toContain('<tr><th align="left" style="padding-right:16px">Name</th>');
  });
});
