import type { Catalogue } from '../../../calculators/i18n/catalogue.ts';
import { SPANISH_REPORTS, spanishInput } from '../../../calculators/i18n/es/report.ts';
import { getCalculator } from '../../../calculators/index.ts';
import { rulesInWords } from '../../../calculators/rules-in-words.ts';
import type { TextRef } from '../../../calculators/texts.ts';
import { splitCitations, visitorNotes } from '../../../calculators/visitor-notes.ts';
import { type AccountRow, findAccountById } from '../../db/repos/accounts-repo.ts';
import { findResult, type ResultRow } from '../../db/repos/results-repo.ts';
import { AppError } from '../../lib/errors.ts';
import { type ReportInput, renderReport } from '../../pdf/render-report.ts';
import { reportDate } from '../../pdf/report-input.ts';
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
  // Words by their English; a label the report shares with a line item ('Taxable estate') by that text's code.
  const tx = (en: string) => (es ? (es.words[en] ?? es.text(en)) : en);
  // Stored texts by their stable code; a result stored before codes (or a code this catalogue does
  // not know) is said from its English, and stays English when nothing knows it.
  const said = (en: string, ref: TextRef | null | undefined) => (es && ref && es.say(ref)) ?? tx(en);
  const rules = stored.label ? tx(stored.label) : undefined;
  const ruleSet = rules ? { ...stored, label: rules.charAt(0).toUpperCase() + rules.slice(1) } : stored;
  const contact = contactOf(account);
  // The rules in words, from the stored rule set's id, in the result's language.
  const words = rulesInWords(row.calculator, stored, es ? 'es' : 'en');
  const asOf = view.outputs.dateOfDeath;
  // Plain words first: a label's or note's citation ("IRC §2058") goes to the small print.
  const citations: string[] = [];
  const plain = (text: string) => {
    const split = splitCitations(text);
    for (const c of split.citations) if (!citations.includes(c)) citations.push(c);
    return split.plain;
  };
  const report: ReportInput = {
    firmName: account?.name ?? 'svc',
    ...(account?.accentColor ? { accent: account.accentColor } : {}),
    ...(contact ? { contact } : {}),
    ...(words ? { rulesInWords: words } : {}),
    ...(typeof asOf === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(asOf) ? { rulesAsOf: asOf } : {}),
    calculatorName: tx(calculator?.name ?? row.calculator),
    calculatorSlug: row.calculator,
    inputs: inLabelOrder(view.inputs, labels).map(([k, v]) => ({
      label: plain(tx(labels[k] ?? k)),
      // A date as the family reads it ("1 November 2026"), as the header prints "Rules as of"; a
      // Spanish report's own words where it has them (the heir's class by its Spanish name).
      value:
        (es && spanishInput(k, v)) ||
        reportDate(es ? { words: es.words } : {}, tx(formatInput(figures, k, v))),
    })),
    lineItems: view.lineItems.map(({ code, params, ...item }) => ({
      ...(item as ReportInput['lineItems'][number]),
      label: plain(said(item.label, code ? { code, ...(params ? { params } : {}) } : undefined)),
    })),
    // The amounts the calculator works out, as it declares them.
    totals: outputs
      .filter(([k, v]) => figures.computed.includes(k) && typeof v === 'number')
      .map(([k, v]) => ({ label: plain(tx(outLabels[k] ?? k)), amount: v as number })),
    extraOutputs: outputs
      .filter(
        // A visitor's report: no other amounts (they are in the calculation above), no "no" flags
        // (e.g. "Estimate (no closed form): no"); the date of death is in the header ("Rules as
        // of", as on the lead page), and the rules in words under the title and in "Basis of
        // calculation".
        ([k, v]) => !figures.money.includes(k) && k !== 'dateOfDeath' && k !== 'rulesUsed' && v !== false,
      )
      .map(([k, v]) => ({ label: plain(tx(outLabels[k] ?? k)), value: tx(formatOutput(figures, k, v)) })),
    // As a visitor reads them (no sourcing remarks, no citations), each by its code.
    notes: view.notes.flatMap((note, i) =>
      visitorNotes([note]).map((en) => plain(said(en, view.noteCodes[i]))),
    ),
    ruleSet,
    disclaimer: said(view.disclaimer, view.disclaimerCode ? { code: view.disclaimerCode } : undefined),
    resultId: row.id,
    generatedAt: now,
    ...(es ? { words: es.words } : {}),
  };
  return citations.length > 0 ? { ...report, citations } : report;
}
