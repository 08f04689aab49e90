/**
 * A Cloudflare D1 binding served from a SQLite file, for upstream's `D1ServerStorage`
 * (d1-storage.ts). D1 is SQLite behind an asynchronous, statement-at-a-time API; this gives
 * that API over bun:sqlite, on the file the harness names, with what D1 does that a host
 * would meet, and nothing more:
 * - `prepare(sql).bind(...values)`: a bound value D1 cannot bind (`undefined`) is refused as
 *   D1 refuses it (`D1_TYPE_ERROR`), booleans bind as 1 and 0;
 * - `first()`, `all()`, `run()`: one statement in autocommit, as D1 runs it; a BLOB is read
 *   back as an `ArrayBuffer`, as D1 returns it (sqlite-dialect.ts `asUint8Array` reads both);
 * - `batch([...])`: the statements in one transaction, all or none: D1's only atomic write;
 * - `exec(sql)`: statements run one after the other.
 * No interactive transaction is offered: D1 has none, which is why the storage needs the
 * coordinator (coordinator.ts) in front of it.
 */
import { Database } from 'bun:sqlite';

type Row = Record<string, unknown>;
/** What D1's `all`, `run` and each result of `batch` answer. */
type D1Result<T> = { results: T[]; success: true; meta: Row };

/** D1 returns BLOB columns as ArrayBuffer; bun:sqlite as Uint8Array. */
function asD1Row(row: Row): Row {
  for (const [column, value] of Object.entries(row)) {
    if (value instanceof Uint8Array) {
      row[column] = value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength);
    }
  }
  return row;
}

function bindable(value: unknown, index: number): unknown {
  if (value === undefined) {
    throw new Error(`D1_TYPE_ERROR: Type 'undefined' not supported for value at index ${index}`);
  }
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

export class D1PreparedStatementOverSqlite {
  constructor(
    readonly db: Database,
    readonly sql: string,
    readonly values: readonly unknown[] = [],
  ) {}

  bind(...values: unknown[]): D1PreparedStatementOverSqlite {
    return new D1PreparedStatementOverSqlite(this.db, this.sql, values.map(bindable));
  }

  async first<T = Row>(): Promise<T | null> {
    // Every row is read, so that the statement ends and lets its read lock go: a statement
    // stepped once and left (bun:sqlite's `get`) keeps the file's shared lock, and another
    // process's commit then waits on it until its busy timeout.
    const rows = this.db.query(this.sql).all(...(this.values as never[])) as Row[];
    return rows.length === 0 ? null : (asD1Row(rows[0] as Row) as T);
  }

  async all<T = Row>(): Promise<D1Result<T>> {
    return this.allNow() as D1Result<T>;
  }

  async run(): Promise<D1Result<Row>> {
    return this.runNow();
  }

  /** `all`, synchronously: what `batch` runs inside its transaction. */
  allNow(): D1Result<Row> {
    const rows = this.db.query(this.sql).all(...(this.values as never[])) as Row[];
    return { results: rows.map(asD1Row), success: true, meta: {} };
  }

  /** `run`, synchronously: what `batch` runs inside its transaction. */
  runNow(): D1Result<Row> {
    const outcome = this.db.query(this.sql).run(...(this.values as never[]));
    return {
      results: [],
      success: true,
      meta: { changes: outcome.changes, last_row_id: Number(outcome.lastInsertRowid) },
    };
  }
}

export class D1DatabaseOverSqlite {
  readonly db: Database;

  /** Opens `path`; `lockWaitMs` is how long a statement waits for another connection's lock. */
  constructor(path: string, lockWaitMs: number) {
    this.db = new Database(path);
    this.db.exec(`PRAGMA busy_timeout = ${lockWaitMs}`);
  }

  prepare(sql: string): D1PreparedStatementOverSqlite {
    return new D1PreparedStatementOverSqlite(this.db, sql);
  }

  async batch(statements: D1PreparedStatementOverSqlite[]): Promise<unknown[]> {
    const apply = this.db.transaction(() =>
      statements.map((statement) =>
        /^\s*(select|with|pragma)\b/i.test(statement.sql) ? statement.allNow() : statement.runNow(),
      ),
    );
    return apply.immediate();
  }

  async exec(sql: string): Promise<{ count: number }> {
    this.db.exec(sql);
    return { count: 1 };
  }

  close(): void {
    this.db.close();
  }
}
