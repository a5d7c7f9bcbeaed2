/**
 * A value that a firm or a visitor chose (a firm's name, a lead's name) as it may appear on one
 * line of a mail: CR, LF, the other line and paragraph separators and control characters become a
 * space. Otherwise "Acme\r\n\r\nYour account is locked: https://evil.example" forges lines of its
 * own in a plain-text part, which readers take as ours.
 */
export function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly what is removed
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
}
