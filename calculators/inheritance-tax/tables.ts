import type { Bands } from '../schedule.ts';

/**
 * Inheritance tax per heir (calculator law reference §3, deaths in 2026). Each heir class is
 * either marginal bands on the whole bequest or a flat rate on the part above an exemption.
 * Spouses are exempt everywhere. One entry per state, source and effective date beside it.
 */
export type ClassRule = { bands: Bands } | { rate: string; exemption?: number };

export interface InheritanceEntry {
  name: string;
  effectiveDate: string;
  source: string;
  verified: boolean;
  classes: Readonly<Record<string, ClassRule>>;
  /** Shown with every result for the state. */
  notes: readonly string[];
}

/**
 * Each heir class by the name a person reads (the widget's choices, the lead page, the PDF): the
 * API's values (`sibling`, `A`) are codes, never shown as they are.
 */
export const HEIR_CLASS_NAMES: Readonly<Record<string, string>> = {
  spouse: 'Spouse (PA)',
  lineal: 'Child, grandchild or parent (PA)',
  sibling: 'Brother or sister (PA)',
  other: 'Someone else',
  A: 'Spouse, child, grandchild or parent (NJ class A)',
  C: 'Brother, sister or child-in-law (NJ class C)',
  D: 'Anyone else (NJ class D)',
  close: 'Close relative (NE)',
  remote: 'Remote relative (NE)',
  exempt: 'Spouse, child, parent or sibling (MD exempt)',
};

const EXEMPT: ClassRule = { rate: '0' };
const Y2026 = '2026-01-01';

export const INHERITANCE_TAXES = {
  PA: {
    name: 'Pennsylvania',
    effectiveDate: Y2026,
    source: '72 P.S. §9116',
    verified: true,
    classes: { spouse: EXEMPT, lineal: { rate: '4.5' }, sibling: { rate: '12' }, other: { rate: '15' } },
    notes: ['Pennsylvania: a transfer from a child aged 21 or younger to a parent is taxed at 0%.'],
  },
  NJ: {
    name: 'New Jersey',
    effectiveDate: Y2026,
    source: 'N.J.S.A. 54:34-2',
    verified: true,
    classes: {
      A: EXEMPT,
      C: {
        bands: [
          [25_000, '0'],
          [1_100_000, '11'],
          [1_400_000, '13'],
          [1_700_000, '14'],
          [null, '16'],
        ],
      },
      D: {
        bands: [
          [700_000, '15'],
          [null, '16'],
        ],
      },
    },
    notes: ['New Jersey: class A (spouse, children, grandchildren, parents) is exempt.'],
  },
  NE: {
    name: 'Nebraska',
    effectiveDate: Y2026,
    source: 'Neb. Rev. Stat. §77-2004, §77-2005, §77-2006',
    verified: true,
    classes: {
      close: { rate: '1', exemption: 100_000 },
      remote: { rate: '11', exemption: 40_000 },
      other: { rate: '15', exemption: 25_000 },
    },
    notes: ['Nebraska: a surviving spouse and heirs under 22 are exempt.'],
  },
  MD: {
    name: 'Maryland',
    effectiveDate: Y2026,
    source: 'Md. Tax-Gen. §7-203',
    verified: true,
    classes: { exempt: EXEMPT, other: { rate: '10' } },
    notes: [
      'Maryland: spouses, children and other lineal descendants, parents and siblings are exempt (class "exempt"). Maryland’s estate tax and inheritance tax are credited against each other.',
    ],
  },
} as const satisfies Record<string, InheritanceEntry>;

export type InheritanceState = keyof typeof INHERITANCE_TAXES;

/** Heir classes per state (the public contract: PA, NJ, NE, MD). */
export const HEIR_CLASSES = Object.fromEntries(
  Object.entries(INHERITANCE_TAXES).map(([state, entry]) => [state, Object.keys(entry.classes)]),
) as { [S in InheritanceState]: (keyof (typeof INHERITANCE_TAXES)[S]['classes'])[] };

/** States whose inheritance tax we refuse to estimate, with the reason. */
export const REFUSED: Readonly<Record<string, string>> = {
  KY: 'Kentucky’s inheritance tax bracket table (KRS 140.070) is not sourced yet, so this calculator cannot estimate it.',
};

/** States that had an inheritance tax until recently; a zero result says why. */
export const REPEALED: Readonly<Record<string, string>> = {
  IA: 'Iowa repealed its inheritance tax for deaths on or after 2025-01-01.',
};
