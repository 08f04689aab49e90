/**
 * Upstream's `PgExecutor` (packages/server/src/pg-executor.ts) over Bun.SQL, the way
 * packages/server/README.md (its "Bun.sql" section) tells a host to run PostgresServerStorage:
 * every statement through Bun's `unsafe` with positional parameters, a transaction through
 * Bun's `begin`, and errors passed on as Bun raises them. Written here from the interface, not
 * copied: upstream ships no such adapter in src/. The driver and the repros (repros/) share it.
 */
import { SQL } from 'bun';
import { bunSqlOptions } from './conninfo';

type Statements = { unsafe(text: string, params: unknown[]): Promise<Record<string, unknown>[]> };

function queryable(on: Statements) {
  return {
    async query(text: string, params: readonly unknown[] = []) {
      const rows = await on.unsafe(text, [...params]);
      return { rows, rowCount: rows.length };
    },
  };
}

/** The `PgExecutor` over one Bun.SQL pool; `close` ends the pool. */
export function bunSqlExecutor(sql: SQL) {
  return {
    ...queryable(sql as unknown as Statements),
    transaction<T>(body: (client: ReturnType<typeof queryable>) => Promise<T>): Promise<T> {
      return sql.begin((tx) => body(queryable(tx as unknown as Statements))) as Promise<T>;
    },
    close: () => sql.end(),
  };
}

/**
 * A Bun.SQL pool for `dsn` (default $SSP_PG_DSN): a postgres:// URL, or a libpq keyword DSN
 * (what scripts/with-postgres exports), every parameter honoured (conninfo.ts). `parameters`
 * adds run-time parameters sent at connection start (search_path, lock_timeout, …); `extra`
 * adds Bun.SQL options.
 */
export function connect(
  extra: Record<string, unknown> = {},
  dsn: string = process.env.SSP_PG_DSN ?? '',
  parameters: Record<string, string> = {},
): SQL {
  if (dsn.includes('://')) return new SQL({ url: dsn, connection: parameters, ...extra });
  return new SQL({ ...bunSqlOptions(dsn, parameters), ...extra } as never);
}
