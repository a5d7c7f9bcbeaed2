/**
 * An audit entry's `data` for a change: the changed keys' values before and after (dates as ISO
 * strings, absent as null), so the Activity page and the admin API show what moved.
 */
export function diff(before: Record<string, unknown>, changes: Record<string, unknown>) {
  const show = (v: unknown) => (v instanceof Date ? v.toISOString() : (v ?? null));
  const keys = Object.keys(changes);
  return {
    before: Object.fromEntries(keys.map((k) => [k, show(before[k])])),
    after: Object.fromEntries(keys.map((k) => [k, show(changes[k])])),
  };
}
