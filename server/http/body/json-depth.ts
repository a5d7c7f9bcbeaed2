/** Deepest JSON nesting a request body may have; no request of ours needs more than a handful. */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether `text`, read as JSON, nests arrays and objects deeper than `max`. One pass over the
 * characters, no recursion and no parse, so a hostile body of 30,000 brackets costs a loop, not a
 * stack: everything after this (the NUL check, validation, request hashing, logging) walks values
 * recursively and would overflow on such a body. Brackets inside strings do not count.
 */
export function nestsDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
