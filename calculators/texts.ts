/**
 * Every sentence and label a calculator writes into a stored result (line items, notes, the
 * disclaimer, the lead's headline), declared once with a stable code: the English is the
 * calculators' own (stored and served as it always was), the code and its `params` are stored beside
 * it, and another language says the result from its catalogue by code (`calculators/i18n/`).
 * `{name}` marks a value put into the English (a state, a date, an amount as written).
 *
 * The calculators keep writing their English literally (a widget's English page carries no codes);
 * `calculators/texts.test.ts` runs each calculator over a grid of answers and fails when a text it
 * writes has no code here, or a code has no Spanish. Codes are never renamed or reused: a changed
 * meaning gets a new code, so a stored result keeps saying what it said.
 */

/** A stored text by its code, with the values its English put in. */
export interface TextRef {
  code: string;
  params?: Record<string, string>;
}

export const COMMON_TEXTS = {
  disclaimer:
    'This is an estimate for information only, not legal or tax advice. Actual liability depends on facts and law not captured here; consult a qualified attorney or tax professional.',
} as const;

export const ESTATE_TAX_TEXTS = {
  'estate-tax.item.taxableEstate': 'Taxable estate',
  'estate-tax.item.stateTax': '{state} estate tax',
  'estate-tax.item.stateDeduction': 'State death tax deduction (IRC §2058)',
  'estate-tax.item.federalTaxableEstate': 'Federal taxable estate',
  'estate-tax.item.adjustedTaxableGifts': 'Adjusted taxable gifts',
  'estate-tax.item.tentativeTax': 'Tentative tax (IRC §2001(c))',
  'estate-tax.item.applicableCredit': 'Applicable credit (exclusion of {exclusion})',
  'estate-tax.item.federalTax': 'Federal estate tax',
  'estate-tax.item.totalTax': 'Total estate tax',
  'estate-tax.note.noStateTax': '{state} has no state estate tax.',
  'estate-tax.note.stateDeduction':
    'The state tax is computed on the estate as entered and then deducted from the federal taxable estate (IRC §2058).',
  'estate-tax.note.dsueCapped': 'The DSUE is capped at the basic exclusion amount.',
  'estate-tax.note.giftTaxPaid':
    'Gift tax already paid on the adjusted taxable gifts is taken as 0; if gift tax was paid, the federal tax here is overstated by that amount.',
  'estate-tax.note.marylandInheritance':
    'Maryland also has a 10% inheritance tax on some heirs; the two are credited against each other.',
  'estate-tax.note.newYorkCliff':
    'New York cliff: the estate is at least 105% of the New York exclusion, so the whole estate is taxed.',
  'estate-tax.note.newYorkPhaseOut':
    'New York cliff: between 100% and 105% of the New York exclusion the exclusion credit phases out, so each added dollar can cost more than a dollar of tax.',
  'estate-tax.note.illinoisEstimate':
    'Illinois: an estimate. Illinois tax interacts with its own base and has no closed form; this uses the fixed point of the former federal credit limited by the tax a $4M exclusion leaves. Confirm with the Illinois Attorney General’s calculator.',
  'estate-tax.note.federalUnconfirmed':
    'The federal basic exclusion for {year} had not been confirmed when these rules were last checked ({checked}), so the {own} amount of {amount} is used.',
  'estate-tax.note.stateUnconfirmed':
    '{state}’s exemption for {year} had not been confirmed when these rules were last checked ({checked}), so the {own} amount of {amount} is used.',
  'estate-tax.note.outsideCoverage':
    'No date of death was given and today ({today}) is outside the dates the tables cover ({from} to {to}); the rules for a death on {date} were used.',
} as const;

/**
 * Notes for the firm's views only (a visitor never reads them, `visitorNotes`): no widget page
 * carries them; the server's Spanish report catalogue says them.
 */
export const FIRM_TEXTS = {
  'estate-tax.note.secondarySource':
    '{jurisdiction} · {figure} ({value}), {covers}: confirmed by secondary sources only [unverified]; check it before relying on the result.',
} as const;

export const INHERITANCE_TAX_TEXTS = {
  'inheritance-tax.item.bequest': 'Amount inherited',
  'inheritance-tax.item.stateTax': '{state} inheritance tax (class {heirClass})',
  'inheritance-tax.item.noTax': 'Inheritance tax',
  'inheritance-tax.item.net': 'Net to heir',
  'inheritance-tax.note.noTax': '{state} has no inheritance tax.',
  'inheritance-tax.note.iowaRepealed': 'Iowa repealed its inheritance tax for deaths on or after 2025-01-01.',
  'inheritance-tax.note.pennsylvania':
    'Pennsylvania: a transfer from a child aged 21 or younger to a parent is taxed at 0%.',
  'inheritance-tax.note.newJersey':
    'New Jersey: class A (spouse, children, grandchildren, parents) is exempt.',
  'inheritance-tax.note.nebraska': 'Nebraska: a surviving spouse and heirs under 22 are exempt.',
  'inheritance-tax.note.maryland':
    'Maryland: spouses, children and other lineal descendants, parents and siblings are exempt (class "exempt"). Maryland’s estate tax and inheritance tax are credited against each other.',
} as const;

export const PROBATE_FEES_TEXTS = {
  'probate-fees.item.estateValue': 'Estate value for fees',
  'probate-fees.item.representative': 'Personal representative (§10800)',
  'probate-fees.item.attorney': 'Attorney (§10810)',
  'probate-fees.item.total': 'Total statutory fees',
  'probate-fees.note.grossValue':
    'Base is the gross inventory value: mortgages and other debts are not deducted.',
  'probate-fees.note.courtSetsExcess':
    'Above $25,000,000 the court sets a reasonable amount for the excess (Prob. Code §10800, §10810); this calculator does not estimate it. The fees shown are for the first $25,000,000 only.',
} as const;

export const EXECUTOR_COMMISSION_TEXTS = {
  'executor-commission.item.estate': 'Commissionable estate',
  'executor-commission.item.commission': 'Executor commission (SCPA §2307)',
  'executor-commission.note.oneCommission':
    'One full commission. Where several executors serve, SCPA §2307 decides how many commissions are allowed and how they are shared.',
} as const;

export const RMD_TEXTS = {
  'rmd.item.balance': 'Balance on 31 December',
  'rmd.item.distribution': 'Required minimum distribution (÷ {factor})',
  'rmd.note.startAge':
    'Required minimum distributions start at age {age} (75 for those reaching 74 after 2032); younger ages are refused.',
  'rmd.note.uniformTable':
    'Uses the Uniform Lifetime Table; an owner whose sole beneficiary is a spouse more than 10 years younger uses the Joint and Last Survivor Table instead.',
} as const;

/**
 * The lead's headline (`lead.result.headline`, "Total estate tax: $773,200.00"): the firm's views,
 * mails and API show it; a visitor never reads it (the widget writes its own sentence), so no widget
 * page's chunk carries it; the server's Spanish report catalogue says it.
 */
export const HEADLINE_TEXTS = {
  'estate-tax.headline.totalTax': 'Total estate tax: {amount}',
  'inheritance-tax.headline.inheritanceTax': 'Inheritance tax: {amount}',
  'probate-fees.headline.totalFees': 'Total fees: {amount}',
  'executor-commission.headline.commission': 'Executor commission: {amount}',
  'rmd.headline.rmd': 'Required minimum distribution: {amount}',
} as const;

/** Every stored text by its code (pure: a widget page's chunk keeps only its own table). */
export const TEXTS: Readonly<Record<string, string>> = /* @__PURE__ */ Object.assign(
  {},
  COMMON_TEXTS,
  ESTATE_TAX_TEXTS,
  INHERITANCE_TAX_TEXTS,
  PROBATE_FEES_TEXTS,
  EXECUTOR_COMMISSION_TEXTS,
  RMD_TEXTS,
  HEADLINE_TEXTS,
  FIRM_TEXTS,
);

/** The codes, for the contract's enum. */
export const TEXT_CODES = /* @__PURE__ */ Object.keys(TEXTS) as [string, ...string[]];

/**
 * Citations in parentheses ("(IRC §2058)") are left out of what a visitor reads (`visitorNotes`):
 * a text is matched with and without them.
 */
const uncited = (s: string): string => s.replace(/\s*\((?:[^()]*§[^()]*|IRC[^()]*)\)/g, '').trim();

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type Matcher = { code: string; names: string[]; re: RegExp };

/** A table's templates as matchers: whole texts first (exact), then templates with values. */
function matchers(table: Readonly<Record<string, string>>): Matcher[] {
  const out: Matcher[] = [];
  for (const [code, en] of Object.entries(table)) {
    const names = [...en.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const source = uncited(en)
      .split(/\{\w+\}/)
      .map(escapeRe)
      .join('(.+?)');
    out.push({ code, names, re: new RegExp(`^${source}$`) });
  }
  return out.sort((a, b) => a.names.length - b.names.length);
}

/**
 * A table's reader: the code of an English text a calculator wrote (as stored, or as a visitor
 * reads it), with its values; undefined when the table has no such text.
 */
export function textReader(table: Readonly<Record<string, string>>): (en: string) => TextRef | undefined {
  let list: Matcher[] | undefined;
  return (en) => {
    list ??= matchers(table);
    const plain = uncited(en);
    for (const { code, names, re } of list) {
      const m = re.exec(plain);
      if (!m) continue;
      if (names.length === 0) return { code };
      return { code, params: Object.fromEntries(names.map((n, i) => [n, m[i + 1]!])) };
    }
    return undefined;
  };
}

/** The code of any stored English text (the server's reader, over every calculator's texts). */
export const textCode = /* @__PURE__ */ textReader(TEXTS);

/** A template with its values put in. */
export const fill = (template: string, params: Readonly<Record<string, string>> = {}): string =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => params[name] ?? whole);
