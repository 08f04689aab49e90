// Upstream's `PgExecutor` (packages/server/src/pg-executor.ts) over Bun.SQL, the way
// packages/server/README.md (its "Bun.sql" section) tells a host to run
// PostgresServerStorage: every statement through Bun's `unsafe` with positional
// parameters, a transaction through Bun's `begin`, and errors passed on as Bun raises
// them. Written here from the interface, not copied: upstream ships no such adapter in
// src/, and what the repros show depends only on those three properties.
import { SQL } from 'bun';

type Statements = { unsafe(text: string, params: unknown[]): Promise<Record<string, unknown>[]> };

function queryable(on: Statements) {
  return {
    async query(text: string, params: readonly unknown[] = []) {
      const rows = await on.unsafe(text, [...params]);
      return { rows, rowCount: rows.length };
    },
  };
}

export function bunSqlExecutor(sql: SQL) {
  return {
    ...queryable(sql as unknown as Statements),
    transaction<T>(body: (client: ReturnType<typeof queryable>) => Promise<T>): Promise<T> {
      return sql.begin((tx) => body(queryable(tx as unknown as Statements))) as Promise<T>;
    },
    close: () => sql.end(),
  };
}

// A Bun.SQL client for $SSP_PG_DSN: a postgres:// URL, or the libpq keyword DSN
// scripts/with-postgres exports. `extra` adds Bun.SQL options (a connection name, a role).
export function connect(extra: Record<string, unknown> = {}): SQL {
  const dsn = process.env.SSP_PG_DSN ?? '';
  if (dsn.includes('://')) return new SQL({ url: dsn, ...extra });
  const words = Object.fromEntries(dsn.split(/\s+/).filter(Boolean).map((word) => word.split('=', 2)));
  return new SQL({
    hostname: words.host,
    port: Number(words.port),
    username: words.user,
    password: words.password,
    database: words.dbname,
    ...extra,
  });
}
