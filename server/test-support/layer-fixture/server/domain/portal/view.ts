export type LeadRow = { id: string };
