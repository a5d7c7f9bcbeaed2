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

/** A parenthesis, one level of nesting allowed ("(IRC §2001(c))"), that cites the law. */
const CITATION = /\s*\(((?:[^()]|\([^()]*\))*)\)/g;
const cites = (inner: string): boolean => /§|\bIRC\b/.test(inner);

/**
 * A label as a visitor's report prints it, plain words first: "State death tax deduction (IRC
 * §2058)" → "State death tax deduction", the citation given back to be printed in small print.
 */
export function splitCitations(text: string): { plain: string; citations: string[] } {
  const citations: string[] = [];
  const plain = text.replace(CITATION, (whole, inner: string) => {
    if (!cites(inner)) return whole;
    citations.push(inner.trim());
    return '';
  });
  return { plain: plain.trim(), citations };
}
