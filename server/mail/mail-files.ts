import { readFileSync, rmSync } from 'node:fs';

/** Removes mails written to DATA_DIR/outbox (after the rows that name them are gone). */
export function removeMailFiles(paths: readonly (string | null)[]): number {
  let removed = 0;
  for (const path of paths) {
    if (!path) continue;
    try {
      rmSync(path);
      removed++;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return removed;
}

export function readMailFile(path: string | null): string | null {
  if (!path) return null;
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
