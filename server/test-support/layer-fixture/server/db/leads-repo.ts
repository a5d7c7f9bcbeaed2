export interface LeadRow {
  id: string;
}

export const countLeads = (rows: readonly LeadRow[]) => rows.length;
