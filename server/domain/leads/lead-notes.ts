import { withTransaction } from '../../db/engine/database.ts';
import { newId } from '../../db/engine/ids.ts';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import { insertLeadNote, type LeadNoteRow, leadNotesOf } from '../../db/repos/lead-notes-repo.ts';
import { findLead } from '../../db/repos/leads-repo.ts';
import { AppError } from '../../lib/errors.ts';
import type { LicensingDeps } from '../deps.ts';

/** A note as REST and the portal show it. */
export interface LeadNote {
  id: string;
  author: string;
  text: string;
  createdAt: string;
}

/** Longest note accepted (a call summary, not a document). */
export const NOTE_MAX = 4000;

const view = (row: LeadNoteRow): LeadNote => ({
  id: row.id,
  author: row.author,
  text: row.body,
  createdAt: row.createdAt.toISOString(),
});

type Deps = Pick<LicensingDeps, 'db' | 'clock'>;

async function requireLead(deps: Deps, accountId: string, leadId: string) {
  const lead = await findLead(deps.db, accountId, leadId);
  if (!lead) throw new AppError('NOT_FOUND', 'No such lead.');
  return lead;
}

/** The lead's notes, oldest first. Another firm's lead is NOT_FOUND, like an unknown one. */
export async function listLeadNotes(deps: Deps, accountId: string, leadId: string): Promise<LeadNote[]> {
  await requireLead(deps, accountId, leadId);
  return (await leadNotesOf(deps.db, accountId, leadId)).map(view);
}

/**
 * Adds a note ("left a voicemail Tuesday"). Written with its audit entry in one transaction; the
 * trail keeps who and when and the note's length, never its text (it may hold personal details).
 */
export async function addLeadNote(
  deps: Deps,
  accountId: string,
  leadId: string,
  text: string,
  author: string,
): Promise<LeadNote> {
  const body = text.trim();
  if (!body || body.length > NOTE_MAX)
    throw new AppError('INVALID_REQUEST', `A note is 1 to ${NOTE_MAX} characters.`, {
      details: [{ path: 'text', message: `1 to ${NOTE_MAX} characters` }],
    });
  await requireLead(deps, accountId, leadId);
  const now = deps.clock.now();
  const row = await withTransaction(deps.db, async (tx) => {
    const note = await insertLeadNote(tx, {
      id: newId('note'),
      accountId,
      leadId,
      author,
      body,
      createdAt: now,
    });
    await recordAudit(tx, {
      accountId,
      actor: author,
      action: 'lead.note_added',
      subject: leadId,
      data: { noteId: note.id, length: body.length },
      at: now,
    });
    return note;
  });
  return view(row);
}
