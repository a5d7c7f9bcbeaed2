import type { Catalogue } from '../../../calculators/i18n/catalogue.ts';
import { SPANISH_REPORTS } from '../../../calculators/i18n/es/report.ts';
import { getCalculator } from '../../../calculators/index.ts';
import { rulesInWords } from '../../../calculators/rules-in-words.ts';
import { visitorNotes } from '../../../calculators/visitor-notes.ts';
import { type AccountRow, findAccountById } from '../../db/repos/accounts-repo.ts';
import { findResult, type ResultRow } from '../../db/repos/results-repo.ts';
import { AppError } from '../../lib/errors.ts';
import { type ReportInput, renderReport } from '../../pdf/render-report.ts';
import { isAdmin, type Principal } from '../credentials/principal.ts';
import { hasScope } from '../credentials/scopes.ts';
import type { LicensingDeps } from '../deps.ts';
import { figuresOf, formatInput, formatOutput, inLabelOrder } from '../leads/result-figures.ts';
import { toResultView } from './calculations.ts';

/**
 * Who may have a result's PDF. A result id alone is no capability (ids reach every script on the
 * host page through `svc-result`): only the embed session that computed it (its `sid`, which
 * survives renewal), the site activation whose token computed it, or an admin credential of the
 * firm (a Connect token, or an API key with `leads:read`). Anyone else gets NOT_FOUND, which
 * reveals nothing about other firms' result ids.
 */
function mayRead(principal: Principal, row: ResultRow): boolean {
  if (principal.kind === 'apikey') return hasScope(principal, 'leads:read');
  if (isAdmin(principal)) return true;
  if (principal.kind === 'mcp') return false;
  if (row.embedSessionId === null || principal.licenseId !== row.licenseId) return false;
  return principal.kind === 'embed'
    ? principal.sid === row.embedSessionId
    : principal.activationId === row.embedSessionId;
}

/** "estate-tax-estimate-2026-11-28.pdf": what the calculator is and the day it was made, no ids. */
const reportFileName = (calculator: string, now: Date): string =>
  `${calculator.replace(/[^a-z0-9-]/gi, '')}-estimate-${now.toISOString().slice(0, 10)}.pdf`;

/** The PDF of a result the caller may read, and the name it downloads as. */
export async function resultReport(
  deps: LicensingDeps,
  principal: Principal,
  resultId: string,
): Promise<{ pdf: Buffer; fileName: string }> {
  const row = await findResult(deps.db, principal.accountId, resultId);
  if (!row || !mayRead(principal, row)) throw new AppError('NOT_FOUND', 'No such result.');
  const account = await findAccountById(deps.db, row.accountId);
  const now = deps.clock.now();
  return {
    pdf: await renderReport(reportInputOf(row, account, now)),
    fileName: reportFileName(row.calculator, now),
  };
}

/** Phone, e-mail, web site, office and call to action; the time zone is the mail's, not the paper's. */
function contactOf(account: Partial<Pick<AccountRow, 'contact'>> | undefined): ReportInput['contact'] {
  const { timeZone: _mailOnly, ...contact } = account?.contact ?? {};
  return Object.keys(contact).length > 0 ? contact : undefined;
}

/** What the PDF shows of a stored result: the firm, the figures in words, the rules and notes. */
export function reportInputOf(
  row: ResultRow,
  account: (Pick<AccountRow, 'name' | 'accentColor'> & Partial<Pick<AccountRow, 'contact'>>) | undefined,
  now: Date,
): ReportInput {
  const calculator = getCalculator(row.calculator);
  const view = toResultView(row);
  const labels = { ...(calculator?.inputLabels ?? {}) };
  const outLabels = { ...(calculator?.outputLabels ?? {}) };
  const outputs = inLabelOrder(view.outputs, outLabels);
  const figures = figuresOf(row.calculator);
  const stored = view.ruleSet as ReportInput['ruleSet'];
  // A Spanish result's report is in Spanish: the stored English (labels, notes, the rules in
  // words) is said from the calculator's catalogue; figures and ids are the same in both.
  const es: Catalogue | undefined = row.language === 'es' ? SPANISH_REPORTS[row.calculator] : undefined;
  const w = (en: string) => es?.words[en] ?? en;
  const tx = (en: string) => es?.text(en) ?? en;
  const said = stored.label ? tx(stored.label) : undefined;
  const ruleSet = said ? { ...stored, label: said.charAt(0).toUpperCase() + said.slice(1) } : stored;
  const contact = contactOf(account);
  // The rules in words from the stored (English) rule set, then said in the result's language.
  const words = rulesInWords(row.calculator, stored);
  const asOf = view.outputs.dateOfDeath;
  return {
    firmName: account?.name ?? 'svc',
    ...(account?.accentColor ? { accent: account.accentColor } : {}),
    ...(contact ? { contact } : {}),
    ...(words ? { rulesInWords: tx(words) } : {}),
    ...(typeof asOf === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(asOf) ? { rulesAsOf: asOf } : {}),
    calculatorName: w(calculator?.name ?? row.calculator),
    calculatorSlug: row.calculator,
    inputs: inLabelOrder(view.inputs, labels).map(([k, v]) => ({
      label: w(labels[k] ?? k),
      value: w(formatInput(figures, k, v)),
    })),
    lineItems: (view.lineItems as ReportInput['lineItems']).map((item) => ({
      ...item,
      label: tx(item.label),
    })),
    // The amounts the calculator works out, as it declares them.
    totals: outputs
      .filter(([k, v]) => figures.computed.includes(k) && typeof v === 'number')
      .map(([k, v]) => ({ label: w(outLabels[k] ?? k), amount: v as number })),
    extraOutputs: outputs
      .filter(
        // A visitor's report: no other amounts (they are in the calculation above), no "no" flags
        // (e.g. "Estimate (no closed form): no"); the date of death is in the header ("Rules as
        // of", as on the lead page), and the rules in words under the title and in "Basis of
        // calculation".
        ([k, v]) => !figures.money.includes(k) && k !== 'dateOfDeath' && k !== 'rulesUsed' && v !== false,
      )
      .map(([k, v]) => ({ label: w(outLabels[k] ?? k), value: w(formatOutput(figures, k, v)) })),
    notes: visitorNotes(view.notes).map(tx),
    ruleSet,
    disclaimer: tx(view.disclaimer),
    resultId: row.id,
    generatedAt: now,
    ...(es ? { words: es.words } : {}),
  };
}
