import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';

/**
 * Told of every statement a database connection sends, as its SQL text (`BEGIN` and `COMMIT`
 * included): one call is one round trip to the database server, or one turn of the embedded
 * engine. Tests count them (`hot-path-round-trips.test.ts`); nothing in production observes.
 */
export type StatementObserver = (sql: string) => void;

const textOf = (query: unknown): string =>
  typeof query === 'string' ? query : String((query as { text?: unknown } | null)?.text ?? query);

/**
 * Every statement of a node-postgres pool: `pool.query` and transactions alike end in a pooled
 * client's `query`, so each client's is observed from its connection on.
 */
export function observePool(pool: pg.Pool, observe: StatementObserver): void {
  pool.on('connect', (client) => {
    const query = client.query as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = function (this: pg.PoolClient, ...args: unknown[]) {
      observe(textOf(args[0]));
      return query.apply(this, args);
    };
  });
}

/**
 * Every statement of an embedded PGlite. Its `transaction` sends BEGIN and COMMIT (or ROLLBACK)
 * through private methods, so those two are reported here, around the callback's own statements.
 */
export function observePglite(client: PGlite, observe: StatementObserver): void {
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = ((sql: string, ...rest: unknown[]) => {
    observe(sql);
    return (query as (...a: unknown[]) => unknown)(sql, ...rest);
  }) as PGlite['query'];
  client.exec = ((sql: string, ...rest: unknown[]) => {
    observe(sql);
    return (exec as (...a: unknown[]) => unknown)(sql, ...rest);
  }) as PGlite['exec'];
  client.transaction = (<T>(fn: (tx: Transaction) => Promise<T>) => {
    observe('BEGIN');
    let committed = false;
    return transaction(async (tx) => {
      const observed: Transaction = Object.create(tx, {
        query: {
          value: (sql: string, ...rest: unknown[]) => {
            observe(sql);
            return (tx.query as (...a: unknown[]) => unknown)(sql, ...rest);
          },
        },
        exec: {
          value: (sql: string, ...rest: unknown[]) => {
            observe(sql);
            return (tx.exec as (...a: unknown[]) => unknown)(sql, ...rest);
          },
        },
      });
      const result = await fn(observed);
      committed = true;
      return result;
    }).finally(() => observe(committed ? 'COMMIT' : 'ROLLBACK'));
  }) as PGlite['transaction'];
}
