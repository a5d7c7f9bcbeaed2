import { html } from 'hono/html';
import { findAccountById } from '../../db/repos/accounts-repo.ts';
import { countLiveProdActivations } from '../../db/repos/activations-repo.ts';
import { listLicensesByAccount } from '../../db/repos/licenses-repo.ts';
import { htmlText } from '../../lib/html.ts';
import { idleCutoff } from '../licensing/seat-idleness.ts';
import { licenseOutlook } from '../licensing/status.ts';
import type { BillingDeps } from './billing-portal.ts';

const day = (date: Date | null | undefined) => (date ? date.toISOString().slice(0, 10) : '—');

/**
 * The built-in billing page (no Stripe configured): the account's licenses with plan, seats,
 * status and renewal date, rendered on the server. Reached only through a signed link.
 */
export async function renderBillingPage(deps: BillingDeps, token: string): Promise<string> {
  const claims = await deps.tokens.verify('billing', token);
  const account = await findAccountById(deps.db, String(claims.sub));
  const licenses = account ? await listLicensesByAccount(deps.db, account.id) : [];
  const now = deps.clock.now();
  const rendered = await Promise.all(
    licenses.map(async (license) => {
      const outlook = licenseOutlook(
        license,
        await countLiveProdActivations(deps.db, license.id, idleCutoff(now)),
        now,
      );
      const { state } = outlook;
      const renewal = license.paidThrough ?? license.trialEndsAt;
      return html`<tr><td>${license.plan}</td><td>…${license.keyLast4}</td><td class="n">${license.seats}</td><td><span class="s ${state.status}">${state.status}</span></td><td>${day(renewal)}</td><td>${day(state.graceEndsAt)}</td></tr><tr class="next"><td colspan="6">${outlook.next}</td></tr>`;
    }),
  );
  const returnUrl =
    typeof claims.ret === 'string' && /^https?:\/\//.test(claims.ret) ? claims.ret : undefined;
  return htmlText(html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Billing — ${account?.name ?? ''}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<style>body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:56rem;padding:0 1rem;color:#1d2433}
h1{font-size:1.5rem}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.5rem;border-bottom:1px solid #dde1e8}
.n{text-align:right}.next td{color:#5b6475;font-size:.875rem;padding-top:0}.s{padding:.1rem .5rem;border-radius:1rem;background:#eef}.active{background:#dcf5e3}.trial{background:#e3ecff}
.grace{background:#fff3cd}.expired,.revoked{background:#f8d7da}footer{margin-top:2rem;color:#5b6475;font-size:.875rem}</style></head>
<body><h1>Billing — ${account?.name ?? 'unknown account'}</h1>
<p>Your svc licenses. To change plan or seats, reply to your invoice email or contact svc support.</p>
<table><thead><tr><th>Plan</th><th>Key</th><th class="n">Seats</th><th>Status</th><th>Renews / ends</th><th>Grace ends</th></tr></thead>
<tbody>${rendered.length ? rendered : html`<tr><td colspan="6">No licenses.</td></tr>`}</tbody></table>
${returnUrl ? html`<p><a href="${returnUrl}">Return to your site</a></p>` : ''}
<footer>Shown ${now.toISOString()}. This link expires shortly after it was issued.</footer></body></html>`);
}
