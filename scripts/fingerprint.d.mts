/** The digest of `files` and of everything under `dirs` (relative to `root`): paths, sizes, modification times. */
export function fingerprint(root: string, dirs: string[], files: string[]): string;
