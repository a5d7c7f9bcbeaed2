/** The share of an instance's slots one firm may hold: max(2, C/4). */
const perFirmShare = (capacity: number) => Math.max(2, Math.floor(capacity / 4));

export interface FairPoolOptions<T> {
  /** Attempts this instance keeps in flight at most (C). */
  capacity: number;
  /** Firms with due work, those after `after` (by id) first and then from the start, at most `limit`. */
  dueFirms(after: string | null, exclude: readonly string[], limit: number): Promise<string[]>;
  /** Claims (leases) at most `limit` due items of one firm; may claim fewer or none. */
  claim(accountId: string, limit: number): Promise<T[]>;
  /** One attempt; its slot is free again the moment it settles. */
  run(item: T): Promise<unknown>;
  onError(error: unknown): void;
}

export interface FairPool {
  /** Fills free slots with due work. Calls while a fill is under way make it look once more. */
  fill(): Promise<void>;
  inFlight(): number;
  /** Resolves when nothing is in flight and no fill is under way. */
  idle(): Promise<void>;
  /** No new claims after this. */
  close(): void;
}

/**
 * Slots for one kind of work (webhook attempts, alert mails) on one instance. A firm holds at most
 * max(2, C/4) of the C slots; free slots go round-robin across the firms that have due work,
 * starting after the firm served last, a fair share per firm per round. A slot is released as its
 * attempt ends and the pool claims again at once, so one attempt that hangs holds one slot, never
 * a batch. Claims are leases in the database: several instances share the work without sending
 * anything twice, each with its own pool.
 */
export function createFairPool<T extends { accountId: string }>(opts: FairPoolOptions<T>): FairPool {
  const perFirm = perFirmShare(opts.capacity);
  const held = new Map<string, number>();
  let total = 0;
  let cursor: string | null = null;
  let filling: Promise<void> | null = null;
  let again = false;
  let closed = false;
  const waiters: (() => void)[] = [];

  const settle = () => {
    if (total > 0 || filling) return;
    for (const wake of waiters.splice(0)) wake();
  };
  const launch = (item: T) => {
    total++;
    held.set(item.accountId, (held.get(item.accountId) ?? 0) + 1);
    void opts
      .run(item)
      .catch(opts.onError)
      .finally(() => {
        total--;
        const left = (held.get(item.accountId) ?? 1) - 1;
        if (left > 0) held.set(item.accountId, left);
        else held.delete(item.accountId);
        if (closed) settle();
        else void fill();
      });
  };
  /** One round over the firms with due work; returns how many items were claimed. */
  const round = async (): Promise<number> => {
    const full = [...held].filter(([, n]) => n >= perFirm).map(([id]) => id);
    const free = opts.capacity - total;
    const firms = await opts.dueFirms(cursor, full, free);
    if (firms.length === 0) return 0;
    const share = Math.max(1, Math.floor(free / firms.length));
    let claimed = 0;
    for (const firm of firms) {
      const room = Math.min(share, perFirm - (held.get(firm) ?? 0), opts.capacity - total);
      if (closed || room <= 0) continue;
      const items = await opts.claim(firm, room);
      cursor = firm;
      for (const item of items) launch(item);
      claimed += items.length;
    }
    return claimed;
  };
  const loop = async () => {
    do {
      again = false;
      while (!closed && total < opts.capacity && (await round()) > 0) {}
    } while (again && !closed && total < opts.capacity);
  };
  const fill = (): Promise<void> => {
    if (closed) return Promise.resolve();
    if (filling) {
      again = true;
      return filling;
    }
    filling = loop()
      .catch(opts.onError)
      .finally(() => {
        filling = null;
        settle();
      });
    return filling;
  };
  return {
    fill,
    inFlight: () => total,
    idle: () =>
      total === 0 && !filling ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve)),
    close() {
      closed = true;
    },
  };
}
