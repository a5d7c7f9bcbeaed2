/** "2026-03-01", the UTC calendar date. */
export const isoDate = (date: Date): string => date.toISOString().slice(0, 10);
