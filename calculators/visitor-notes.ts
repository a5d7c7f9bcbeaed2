/**
 * Notes as a visitor reads them (the widget and the PDF): sourcing remarks meant for the firm
 * ("[unverified]", "single secondary source") are left out, and citations in parentheses are
 * dropped from sentences. The firm's own views keep the notes as the calculator wrote them.
 */
export function visitorNotes(notes: readonly string[]): string[] {
  return notes
    .filter((note) => !/\[unverified\]|secondary source/i.test(note))
    .map((note) => note.replace(/\s*\((?:[^()]*§[^()]*|IRC[^()]*)\)/g, '').trim())
    .filter(Boolean);
}
