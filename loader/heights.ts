/**
 * Container widths (CSS px) at which each calculator's first height is measured: HEIGHT_FROM, then
 * every HEIGHT_STEP (320, 400, 480, 560, 640). The loader takes the widest one not above the
 * container's width (the first below 320); the card stops growing at 720 px, so 640 serves desktops.
 */
export const HEIGHT_FROM = 320;
export const HEIGHT_STEP = 80;
export const HEIGHT_COUNT = 5;

/**
 * The heights below are measured in English; Spanish runs about a tenth taller (`MEASURE_LANG=es
 * npm run measure:heights`: 3-21 %), so a Spanish widget's room is the English height times this,
 * by the loader and by the portal's snippet alike.
 */
export const SPANISH_ROOM = 1.1;

/**
 * Each calculator's height (CSS px) as it first appears, at those widths: two base-36 digits per
 * width (a third the bytes of a list of numbers in loader.js). Written by `npm run measure:heights`;
 * do not edit by hand.
 */
export const HEIGHTS: Record<string, string> = {
  'estate-tax': 'ndmslukrkg', // 841, 820, 786, 747, 736 px
  'inheritance-tax': 'qjncn1mjl2', // 955, 840, 829, 811, 758 px
  'probate-fees': 'inhdfqf8ex', // 671, 625, 566, 548, 537 px
  'executor-commission': 'ingsggfzea', // 671, 604, 592, 575, 514 px
  rmd: 'lxk2j2ilgy', // 789, 722, 686, 669, 610 px
};
