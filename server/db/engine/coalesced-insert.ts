/**
 * Many small INSERTs that arrive together, written as one statement: every caller still waits for
 * its own row to be committed, but a burst of N calculations costs one round trip and one commit
 * (one WAL flush) instead of N. Rows queued in the same turn of the event loop go together, and
 * while a batch is being written the next one fills. A failed batch is retried row by row, so one
 * bad row fails only its own caller.
 */
export interface CoalescedInsert<Row> {
  insert(row: Row): Promise<void>;
}

interface Pending<Row> {
  row: Row;
  resolve(): void;
  reject(err: unknown): void;
}

export function coalescedInsert<Row>(opts: {
  /** Writes all rows in one statement. */
  writeMany(rows: Row[]): Promise<void>;
  /** Writes one row (the retry of a failed batch). */
  writeOne(row: Row): Promise<void>;
  /** Rows per statement at most. */
  maxBatch?: number;
  /** Statements in flight at once at most (leave pool connections to other queries). */
  maxInFlight?: number;
}): CoalescedInsert<Row> {
  const maxBatch = opts.maxBatch ?? 200;
  const maxInFlight = opts.maxInFlight ?? 2;
  let queue: Pending<Row>[] = [];
  let scheduled = false;
  let inFlight = 0;

  async function write(batch: Pending<Row>[]): Promise<void> {
    try {
      if (batch.length === 1) await opts.writeOne(batch[0]!.row);
      else await opts.writeMany(batch.map((p) => p.row));
      for (const p of batch) p.resolve();
    } catch (err) {
      if (batch.length === 1) batch[0]!.reject(err);
      else
        await Promise.all(
          batch.map((p) => opts.writeOne(p.row).then(p.resolve, (e: unknown) => p.reject(e))),
        );
    }
  }

  function flush(): void {
    scheduled = false;
    while (queue.length > 0 && inFlight < maxInFlight) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      inFlight++;
      void write(batch).finally(() => {
        inFlight--;
        schedule();
      });
    }
  }

  function schedule(): void {
    if (scheduled || queue.length === 0 || inFlight >= maxInFlight) return;
    scheduled = true;
    setImmediate(flush);
  }

  return {
    insert(row) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ row, resolve, reject });
        schedule();
      });
    },
  };
}
