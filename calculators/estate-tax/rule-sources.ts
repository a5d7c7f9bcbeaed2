/**
 * Where every estate-tax figure comes from, how far it is confirmed, and when it was checked: the
 * firm's view of the rules (portal "Rules and sources", docs/rules-and-sources.md). Only the
 * server and the portal load this file; the widget bundles the numbers (state-tables.ts,
 * federal-tables.ts) and none of this text.
 *
 * Status: `primary` = a statute, session-law or bill text, or a revenue department's own form or
 * table says so; `secondary` = only commentators, datasets or news reports say so (the figure is
 * used, and the firm is told); `missing` = no source gives the figure (a later year's indexed
 * amount not yet published): deaths in that year use the latest confirmed amount with a notice.
 *
 * `checked`: the day a source was read for this table ("2026-11" = the law reference's second
 * pass in November 2026, day not recorded). Never a projected or inflation-estimated figure.
 */
export type Status = 'primary' | 'secondary' | 'missing';

export interface Source {
  title: string;
  url?: string;
  /** `search`: a search of the reachable sources that found nothing published. */
  kind: 'primary' | 'secondary' | 'search';
  checked: string;
}

interface FigureSource {
  status: Status;
  sources: readonly Source[];
  note?: string;
}

/** Figures of one version, by figure key (see rules-catalog.ts for the keys of each table). */
export type VersionSources = Readonly<Record<string, FigureSource>>;

const TODAY = '2026-11-24';
/** The second check of every 2027 figure (issue 36). */
const RECHECK = '2026-11-28';
const REF = '2026-11';

const src = (kind: Source['kind'], title: string, url?: string, checked = TODAY): Source => ({
  kind,
  title,
  checked,
  ...(url ? { url } : {}),
});

const STEPUP = src(
  'secondary',
  'StepUpLaw state estate tax dataset, data/jurisdictions.csv (retrieved 2026-07-11)',
  'https://github.com/stepuplaw/state-estate-tax-dataset',
);
const REFERENCE = (what: string) => src('secondary', `Calculator law reference, ${what}`, undefined, REF);
const CREDIT_TABLE: FigureSource = {
  status: 'primary',
  sources: [
    src('primary', 'Former IRC §2011(b) state death tax credit table (as of 1 January 2001)', undefined, REF),
  ],
};
const primary = (title: string, url?: string, checked = REF): FigureSource => ({
  status: 'primary',
  sources: [src('primary', title, url, checked)],
});

const WA_AMENDMENT = src(
  'primary',
  'ESB 6347, House amendment H AMD 2662 (adopted 11 March 2026), amending RCW 83.100.020(1)(a)',
  'https://lawfilesext.leg.wa.gov/biennium/2025-26/Htm/Amendments/House/6347.E%20AMH%20STOK%20TAYT%20607.htm',
);
const WA_DOR_TABLES = src(
  'primary',
  'Washington Department of Revenue, Estate tax tables (Table W)',
  'https://dor.wa.gov/taxes-rates/other-taxes/estate-tax-tables',
);
const WA_POLICY_CENTER = src(
  'secondary',
  'Washington Policy Center, “Facts from Frost: estate (death) tax exemption” (SB 6347 lowered the top rate back to 20 %; $3M frozen from 1 July 2026)',
  'https://www.washingtonpolicy.org/publications/detail/facts-from-frost-estate-death-tax-exemption',
);
const WA_LISTSERV = src(
  'secondary',
  'WSBA real property, probate and trust listserv, 14 March 2026 (links the bill as passed, 6347.PL)',
  'http://mailman.fsr.com/pipermail/wsbapt/attachments/20260314/adf3cda7/attachment.html',
);

/** A fixed amount searched again for a 2027 change (issue 36's second check): none found. */
const NO_2027_CHANGE = (what: string) =>
  src('search', `Searched for a change to ${what} for deaths in 2027: none found`, undefined, RECHECK);

const FEDERAL: Readonly<Record<string, VersionSources>> = {
  'US-2026-01-01': {
    amount: {
      status: 'primary',
      sources: [
        src(
          'primary',
          'IRC §2010(c)(3) as amended by P.L. 119-21 §70106; Rev. Proc. 2025-32',
          undefined,
          REF,
        ),
        src(
          'secondary',
          'Evans Legal: Rev. Proc. 2025-32 (27 October 2025) confirms $15,000,000 for 2026',
          'https://resources.evans-legal.com/?paged=1&tag=federal-estate-tax',
        ),
        src(
          'secondary',
          'Bowditch: IRS 2026 inflation adjustments, basic exclusion $15,000,000',
          'https://www.bowditch.com/estateandtaxplanningblog/2025/10/28/big-increase-in-2026-federal-estate-exemption-irs-issues-2026-inflation-adjustments/',
        ),
      ],
    },
    schedule: primary('IRC §2001(c) unified rate schedule (Form 706 instructions, Table A)'),
  },
};

const CGS_12_391 = 'https://www.cga.ct.gov/current/pub/chap_217.htm';

/**
 * Connecticut's versions follow the federal table (state-tables.ts), so do their sources: the
 * exemption is as confirmed as the federal amount it equals, and the statute that ties them.
 */
const connecticut = Object.fromEntries(
  Object.entries(FEDERAL).map(([id, federal]) => [
    id.replace(/^US-/, 'CT-'),
    {
      exemption: {
        status: federal.amount?.status ?? 'missing',
        note: 'Equal to the federal basic exclusion amount of the year (computed from the federal table, not typed).',
        sources: [
          src('primary', 'CGS §12-391: the exemption is the federal basic exclusion amount', CGS_12_391, REF),
          ...(federal.amount?.sources ?? []),
        ],
      },
      rate: primary('CGS §12-391', CGS_12_391),
      cap: primary('CGS §12-391', CGS_12_391),
    } satisfies VersionSources,
  ]),
);

/** By rule-set id: `US-<first day>` for the federal rules, `<state>-<first day>` for a state's. */
export const RULE_SOURCES: Readonly<Record<string, VersionSources>> = {
  ...FEDERAL,
  ...connecticut,
  'DC-2026-01-01': {
    exemption: {
      status: 'secondary',
      note: 'The indexation rule is primary (D.C. Code §47-3701(14)); the 2026 amount was found only in sources citing the 2026 D-76 booklet, which could not be opened. The Office of Tax and Revenue’s stored pages stop at 2023.',
      sources: [
        src(
          'primary',
          'D.C. Code §47-3701 (cost-of-living adjustment, zero bracket amount)',
          'https://code.dccouncil.gov/us/dc/council/code/titles/47/chapters/37/index.full.html',
        ),
        STEPUP,
        REFERENCE('two secondary sources citing the 2026 D-76 booklet'),
        src(
          'secondary',
          'OTR “DC Estate Tax Return” page (lists amounts through 2023 only)',
          'https://otr.cfo.dc.gov/es/node/1322846',
        ),
      ],
    },
    bands: primary(
      'D.C. Code §47-3702(a-1)',
      'https://casetext.com/statute/district-of-columbia-official-code/division-viii-general-laws/title-47-taxation-licensing-permits-assessments-and-fees/chapter-37-inheritance-and-estate-taxes/section-47-3702-tax-on-transfer-of-taxable-estate-of-residents-amounts-credit-property-of-resident-defined',
      TODAY,
    ),
  },
  'HI-2026-01-01': {
    exemption: {
      status: 'primary',
      note: 'Resolved: the Department of Taxation’s own instructions give $5,490,000, fixed by Act 27, SLH 2018 (the federal amount of 2017) and kept by later conformity acts, so it is not indexed. $5,450,000 was the federal amount of 2016 (Rev. Proc. 2015-53) and is stale.',
      sources: [
        src(
          'primary',
          'Hawaii Department of Taxation, Instructions for Form M-6 (Rev. 2018): excludable amount $5,490,000 (Act 27, SLH 2018)',
          'https://www.templateroller.com/template/1802280/instructions-form-m-6-hawaii-estate-tax-return.html',
        ),
        src(
          'primary',
          'Hawaii Department of Taxation, Instructions for Form M-6 (Rev. 2023): excludable amount $5,490,000 (Act 56, SLH 2023)',
          'https://ses.stf.com/bookmarks/Green%20Team/HI_wsw/0000/2024062008514122510173.htm_old.htm',
        ),
        STEPUP,
        NO_2027_CHANGE('the Hawaii exclusion'),
      ],
    },
    rows: primary('HRS §236E-6, §236E-8'),
  },
  'IL-2026-01-01': {
    exemption: {
      status: 'primary',
      sources: [
        src(
          'primary',
          '35 ILCS 405/2, 405/3',
          'https://www.ilga.gov/legislation/ilcs/ilcs3.asp?ActID=2624',
          REF,
        ),
        STEPUP,
        NO_2027_CHANGE('the Illinois exclusion'),
      ],
    },
  },
  'MA-2026-01-01': {
    exemption: {
      status: 'primary',
      sources: [
        src('primary', 'M.G.L. c. 65C §2A(f), (g)', undefined, REF),
        STEPUP,
        NO_2027_CHANGE('the Massachusetts exemption (not indexed since the 2023 act)'),
      ],
    },
    credit: {
      status: 'primary',
      sources: [src('primary', 'M.G.L. c. 65C §2A(f): credit of $99,600', undefined, REF), STEPUP],
    },
    creditTable: CREDIT_TABLE,
  },
  'ME-2026-01-01': {
    exemption: {
      status: 'secondary',
      note: 'Maine Revenue Services’ 706ME page is the primary source; its stored copy lists 2021–2024 only ($6,800,000 for 2024), so the 2026 amount rests on a dataset quoting that page.',
      sources: [
        STEPUP,
        src(
          'primary',
          'Maine Revenue Services, Estate Tax (706ME) (stored copy: amounts through 2024)',
          'https://www.maine.gov/revenue/taxes/income-estate-tax/estate-tax-706me',
        ),
        src(
          'secondary',
          'EstateRiskIQ, Maine tax exposure (2025: $7,000,000)',
          'https://www.estateriskiq.com/states/maine/risk/tax',
        ),
      ],
    },
    bands: primary(
      'Maine Revenue Services, Estate Tax (706ME): 8 %, 10 %, 12 % on successive $3M bands',
      'https://www.maine.gov/revenue/taxes/income-estate-tax/estate-tax-706me',
      TODAY,
    ),
  },
  'MD-2026-01-01': {
    exemption: {
      status: 'primary',
      sources: [
        src(
          'primary',
          'Md. Tax-Gen. §7-309',
          'https://mgaleg.maryland.gov/mgawebsite/Laws/StatuteText?article=gtg&section=7-309',
          REF,
        ),
        STEPUP,
        NO_2027_CHANGE('the Maryland exemption'),
      ],
    },
    rate: primary(
      'Md. Tax-Gen. §7-309',
      'https://mgaleg.maryland.gov/mgawebsite/Laws/StatuteText?article=gtg&section=7-309',
    ),
  },
  'MN-2026-01-01': {
    exemption: {
      status: 'primary',
      sources: [
        src('primary', 'Minn. Stat. §291.016 subd. 3', undefined, REF),
        STEPUP,
        NO_2027_CHANGE('the Minnesota exclusion'),
      ],
    },
    rows: primary('Minn. Stat. §291.03'),
  },
  'NY-2026-01-01': {
    exemption: {
      status: 'secondary',
      note: 'The Department of Taxation and Finance page is the primary source; its stored copy stops at 2025 ($7,160,000).',
      sources: [
        src(
          'secondary',
          'EstateRiskIQ, New York tax exposure (2026: $7,350,000)',
          'https://www.estateriskiq.com/states/new-york/risk/tax',
        ),
        src(
          'secondary',
          'The Tradable, “New York estate tax exemption just moved for 2026” ($7,350,000)',
          'https://thetradable.com/opinions/new-york-estate-tax-exemption-just-moved-for-2026-and-the-735m-number-changes-planning-fast',
        ),
        STEPUP,
        src(
          'primary',
          'NY Department of Taxation and Finance, Estate tax (stored copy: through 2025)',
          'https://tax.ny.gov/pit/estate/etidx.htm',
        ),
      ],
    },
    rows: primary('N.Y. Tax Law §952(b), §952(c)'),
  },
  'OR-2026-01-01': {
    rows: {
      status: 'primary',
      sources: [
        src('primary', 'ORS 118.010', 'https://www.oregonlegislature.gov/bills_laws/ors/ors118.html', REF),
        STEPUP,
        src(
          'search',
          'Searched for a change to the Oregon tax for deaths in 2027: none found. Initiative Petition 51 (repeal) had a certified ballot title and was gathering signatures for November 2026 (Willamette Week, 7 October 2025); no report that it qualified or passed',
          'https://www.wweek.com/news/state/2025/10/07/as-state-lawmakers-ponder-federal-funding-cuts-initiative-advances-that-would-end-estate-tax',
          RECHECK,
        ),
      ],
    },
  },
  'RI-2026-01-01': {
    exemption: {
      status: 'secondary',
      note: 'The Division of Taxation’s estate page and advisory ADV 2025-27 are the primary sources; neither could be opened.',
      sources: [
        src(
          'secondary',
          'EstateRiskIQ, Rhode Island tax exposure (citing tax.ri.gov and ADV 2025-27)',
          'https://www.estateriskiq.com/states/rhode-island/risk/tax',
        ),
        STEPUP,
      ],
    },
    credit: {
      status: 'secondary',
      note: 'Not published in any source reached. It equals the credit table at the exemption: 70,800 + 7.2 % × (1,838,056 − 60,000 − 1,540,000) = 87,940.03, so it stands or falls with the $1,838,056 exemption.',
      sources: [
        src('primary', 'R.I. Gen. Laws §44-22-1.1 (credit indexed by CPI-U)', undefined, REF),
        STEPUP,
      ],
    },
    creditTable: CREDIT_TABLE,
  },
  'VT-2026-01-01': {
    exemption: {
      status: 'primary',
      sources: [
        src('primary', '32 V.S.A. §7442a', 'https://tax.vermont.gov/individuals/estate-tax', REF),
        STEPUP,
        NO_2027_CHANGE('the Vermont exemption'),
      ],
    },
    rate: primary('32 V.S.A. §7442a', 'https://tax.vermont.gov/individuals/estate-tax'),
  },
  'WA-2026-01-01': {
    exemption: {
      status: 'primary',
      sources: [
        WA_AMENDMENT,
        src(
          'secondary',
          'EstateRiskIQ, Washington tax exposure (2026: $3,076,000, citing the Department of Revenue)',
          'https://www.estateriskiq.com/states/washington/risk/tax',
        ),
      ],
    },
    rows: {
      status: 'primary',
      note: 'The table is the Department’s Table W for deaths from 1 July 2025; that it ends on 30 June 2026 rests on the reports of ESB 6347 below.',
      sources: [WA_DOR_TABLES, WA_POLICY_CENTER, WA_LISTSERV],
    },
  },
  'WA-2026-07-01': {
    exemption: {
      status: 'primary',
      note: 'In the text of the House amendment adopted on 11 March 2026; the bill as passed (6347.PL) and the session law could not be opened.',
      sources: [WA_AMENDMENT, WA_POLICY_CENTER, WA_LISTSERV],
    },
    rows: {
      status: 'secondary',
      note: 'The figures are the table of RCW 83.100.040 as it stood before July 2025 (primary: the Department’s Table W for 2014 to 30 June 2025, and the same table in the companion bill HB 2725). Its return from 1 July 2026 is reported by secondary sources only; confirm from the session law or the Department’s tables page.',
      sources: [
        WA_POLICY_CENTER,
        WA_LISTSERV,
        src(
          'secondary',
          'The Center Square (Daily Fly), 16 February 2026: SB 6347 returns all eight brackets to their pre-2025 rates',
          'https://www.dailyfly.com/2026/02/16/washington-senate-bill-would-revert-2025-estate-tax-rate-increases-to-prior-levels-as-income-tax-debate-continues',
        ),
        STEPUP,
        src(
          'primary',
          'Washington Department of Revenue, Table W for deaths 1 January 2014 to 30 June 2025 (the same figures)',
          'https://dor.wa.gov/taxes-rates/other-taxes/estate-tax-tables',
        ),
        src(
          'primary',
          'HB 2725 (companion bill, as introduced): the same table',
          'https://wa-law.org/bill/2025-26/hb/2725/1',
        ),
      ],
    },
  },
  'WA-2027-01-01': {
    exemption: {
      status: 'secondary',
      note: 'Kept at $3,000,000 for 2027: the amended RCW 83.100.020 adjusts it from 2027 by the October consumer price index for the Seattle-Tacoma-Bremerton area, which the Bureau of Labor Statistics stopped publishing in 2018 (the same gap kept the exclusion at $2,193,000 from 2018 to 2025). The Department of Revenue had published no 2027 figure; change this row if it does.',
      sources: [
        WA_AMENDMENT,
        src(
          'secondary',
          'Washington Policy Center, “Facts from Frost: estate (death) tax exemption”: the index SB 6347 names no longer exists, so the $3M exemption is effectively frozen from 1 July 2026',
          'https://www.washingtonpolicy.org/publications/detail/facts-from-frost-estate-death-tax-exemption',
          RECHECK,
        ),
        src(
          'secondary',
          'Montgomery Purdue: the Seattle-Tacoma-Bremerton index ceased in 2018, which froze the exclusion at $2,193,000',
          'https://montgomerypurdue.com/blog/proposed-legislation-would-increase-washington-estate-tax-exemption-for-first-time-since-2018',
          RECHECK,
        ),
      ],
    },
    rows: {
      status: 'secondary',
      note: 'The same 10–20 % table as from 1 July 2026.',
      sources: [WA_POLICY_CENTER, WA_LISTSERV],
    },
  },
};

/**
 * Amounts looked for and not found ("not published"): what a death in that year uses instead (the
 * latest confirmed amount) is said to the visitor; here is what was checked, and on which day. The
 * coverage check, docs/rules-and-sources.md and the portal list them as next year's checklist.
 */
export interface Pending {
  /** The jurisdiction's code (`US` for the federal rules). */
  code: string;
  year: number;
  /** Tells two figures of one jurisdiction and year apart (`US-2027-gift`); default `<code>-<year>`. */
  id?: string;
  figure: string;
  note: string;
  sources: readonly Source[];
  /** False when no calculator uses the figure (kept so that the checklist is whole). */
  used?: false;
  /** What the figure speaks for, when not deaths in `year` ("Gifts made in 2027"). */
  covers?: string;
}

const NONE_FOUND = (what: string) =>
  src('search', `Searched the reachable sources for ${what}: nothing published`, undefined, RECHECK);

const FARRELL_FRITZ = src(
  'secondary',
  'Farrell Fritz: the $15,000,000 is statutory for 2026, with indexing beginning in 2027',
  'https://www.farrellfritz.com/insights/tax-tracker/estate-planning-outlook-2026-projected-irs-thresholds-and-exclusions',
);

export const PENDING: readonly Pending[] = [
  {
    code: 'US',
    year: 2027,
    figure: 'Basic exclusion amount for 2027',
    note: 'Indexed from 2027 (IRC §2010(c)(3)(B) as amended by P.L. 119-21: $15,000,000 adjusted from a 2025 base year, rounded to the nearest $10,000). Rev. Proc. 2026-35 is named by a tax-bracket tool as the 2027 adjustments, but no source reached quotes its basic exclusion amount, and neither the revenue procedure nor an IRS release could be opened; a figure of $15,480,000 seen in one estate-tax tool is not used until one does.',
    sources: [
      NONE_FOUND(
        '“Rev. Proc. 2026-35”, “basic exclusion amount 2027” and “IRS inflation adjustments tax year 2027”',
      ),
      src(
        'secondary',
        'Tax-bracket tool “tax-brackets-standard-deduction-2027-mcp” (Glama listing): names Rev. Proc. 2026-35 as the 2027 inflation adjustments; gives no estate figure in what could be read',
        'https://glama.ai/mcp/servers/theluckystrike/tax-brackets-standard-deduction-2027-mcp/tree',
        RECHECK,
      ),
      FARRELL_FRITZ,
    ],
  },
  {
    code: 'US',
    year: 2027,
    id: 'US-2027-gift',
    figure: 'Annual gift tax exclusion for 2027',
    note: 'Indexed under IRC §2503(b)(2) in steps of $1,000; $19,000 for 2026 (Rev. Proc. 2025-32). No calculator uses it today; listed so that the 2027 pack is whole.',
    used: false,
    covers: 'Gifts made in 2027',
    sources: [NONE_FOUND('the annual gift tax exclusion for 2027')],
  },
  {
    code: 'CT',
    year: 2027,
    figure: 'Exemption for 2027',
    note: 'Equal to the federal basic exclusion for 2027 (CGS §12-391), which is not published: it follows the federal row the day that one is added.',
    sources: [NONE_FOUND('the Connecticut exemption for 2027')],
  },
  {
    code: 'DC',
    year: 2027,
    figure: 'Exemption for 2027',
    note: 'Indexed by D.C. Code §47-3701(14); the 2027 D-76 booklet was not found, and the Office of Tax and Revenue pages reached stop at 2023.',
    sources: [NONE_FOUND('the DC estate tax exemption for 2027 and the 2027 D-76 booklet')],
  },
  {
    code: 'ME',
    year: 2027,
    figure: 'Exclusion for 2027',
    note: 'Indexed by 36 M.R.S. §4119; Maine Revenue Services’ 706ME page, as reached, lists amounts through 2024 only.',
    sources: [
      NONE_FOUND('the Maine exclusion for 2027'),
      src(
        'primary',
        'Maine Revenue Services, Estate Tax (706ME) (stored copy: amounts through 2024)',
        'https://www.maine.gov/revenue/taxes/income-estate-tax/estate-tax-706me',
        RECHECK,
      ),
    ],
  },
  {
    code: 'NY',
    year: 2027,
    figure: 'Basic exclusion amount for 2027',
    note: 'Indexed annually; the Department of Taxation and Finance had not published it in any source reached.',
    sources: [NONE_FOUND('the New York basic exclusion amount for 2027')],
  },
  {
    code: 'RI',
    year: 2027,
    figure: 'Exemption and credit for 2027',
    note: 'Indexed by CPI-U (R.I. Gen. Laws §44-22-1.1). Bills to raise the exemption were found (to $15,000,000 from 2027; to $3,600,000 from 2026 rising by $1,000,000 a year from 2027), but no sign that either passed.',
    sources: [
      NONE_FOUND('the Rhode Island exemption for 2027'),
      src(
        'secondary',
        'FastDemocracy summary of a 2026 Rhode Island bill amending §44-22-1.1 ($15,000,000 from 2027; status unknown)',
        'https://fastdemocracy.com/bill-summary/?billsummary_id=RIB00034147&billsummary_session=2026&billsummary_state=ri',
        RECHECK,
      ),
      src(
        'secondary',
        'FastDemocracy summary of a 2025 Rhode Island bill amending §44-22-1.1 ($3,600,000 from 2026, then +$1,000,000 a year; status unknown)',
        'https://fastdemocracy.com/bill-summary/?billsummary_id=RIB00032133&billsummary_session=2025&billsummary_state=ri',
        RECHECK,
      ),
    ],
  },
];

/** The id a pending figure is filed and announced under. */
export const pendingId = (p: Pending): string => p.id ?? `${p.code}-${p.year}`;
