/**
 * Open server storages by handle (docs/driver-protocol.md "storage.open", "storage.close"):
 * upstream's `SqliteServerStorage` (sqlite-storage.ts) on the checkout's bun:sqlite adapter
 * (sqlite-bun-driver.ts), or `D1ServerStorage` (d1-storage.ts) on a D1 binding over the same
 * file (d1-binding.ts) behind the coordinator (coordinator.ts), or `PostgresServerStorage`
 * (postgres-storage.ts) on the Bun.SQL `PgExecutor` (bun-sql-executor.ts), opened as a host
 * opens them.
 */
import { bunSqlExecutor, connect } from './bun-sql-executor';
import { Coordinator } from './coordinator';
import { D1DatabaseOverSqlite } from './d1-binding';
import { badRequest, invalidArgument, unsupported, upstreamCall } from './errors';
import type { Upstream } from './upstream';
import { boolean, integer, object, type Params, text } from './wire';

export interface OpenStorage {
  readonly backend: 'sqlite' | 'postgres';
  /** Runs one push or command of `partition`: in the coordinator's queue for D1, at once otherwise. */
  readonly serialize: <T>(partition: string, work: () => Promise<T>) => Promise<T>;
  /** Upstream's `ServerStorage`. */
  // biome-ignore lint/suspicious/noExplicitAny: upstream object
  readonly storage: any;
  /** Runs one statement on the storage's own connection (pool on PostgreSQL); rows as objects. */
  readonly query: (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;
  /** The `CompiledSchema` of the last successful ensure_schema (its tables are the ones served). */
  // biome-ignore lint/suspicious/noExplicitAny: upstream object
  compiled: any;
  /**
   * The `ServerSchema` that ensure_schema compiled: push.run and command.run without a
   * `schema` run under it (capability `ensuredSchema`), as a host pushes under its configuration.
   */
  serverSchema: Params | undefined;
  /** Open transactions of this storage: handle → upstream `StorageTransaction`. */
  // biome-ignore lint/suspicious/noExplicitAny: upstream object
  readonly transactions: Map<number, any>;
  readonly close: () => Promise<void>;
}

const atOnce = <T>(_partition: string, work: () => Promise<T>): Promise<T> => work();

export class Storages {
  readonly #open = new Map<number, OpenStorage>();
  #next = 1;

  /**
   * `sqliteAs`: which of upstream's storages serves a SQLite file, its SQLite storage or its D1
   * storage, whose pushes a coordinator serializes unless `coordinatorSerializes` is false.
   */
  constructor(
    readonly upstream: Upstream,
    readonly sqliteAs: 'sqlite' | 'd1' = 'sqlite',
    readonly coordinatorSerializes = true,
  ) {}

  get(params: Params): OpenStorage {
    const handle = integer(params, 'storage');
    const found = this.#open.get(handle);
    if (found === undefined) throw badRequest(`storage ${handle} is not open`);
    return found;
  }

  async open(params: Params): Promise<number> {
    const location = object(params, 'location');
    const options = object(params, 'options');
    const lockWaitMs = integer(options, 'lockWaitMs');
    // `compatibility` is not read: upstream has one behaviour, which trusts the schema version
    // alone at the same version (what "0.21" asks for). Hooks are not advertised.
    if (boolean(options, 'hooks', false)) throw unsupported('hooks: upstream has no hook points');
    const backend = text(location, 'backend');
    let entry: OpenStorage;
    if (backend === 'sqlite' && this.sqliteAs === 'd1') entry = await this.#openD1(text(location, 'path'), lockWaitMs);
    else if (backend === 'sqlite') entry = await this.#openSqlite(text(location, 'path'), lockWaitMs);
    else if (backend === 'postgres') entry = await this.#openPostgres(text(location, 'dsn'), text(location, 'schema'), lockWaitMs);
    else if (backend === 'memory') throw invalidArgument('server storage needs a SQL backend, not memory');
    else throw unsupported(`backend ${backend} is not served`);
    const handle = this.#next++;
    this.#open.set(handle, entry);
    return handle;
  }

  async #openSqlite(path: string, lockWaitMs: number): Promise<OpenStorage> {
    const db = new this.upstream.BunSqliteDatabase(path);
    try {
      // Host wiring: the lock wait. Upstream's sqlite-bun.ts opens `new BunSqliteDatabase(path)`
      // and sets no pragma; a host sets its busy timeout on the database it hands over.
      db.exec(`PRAGMA busy_timeout = ${lockWaitMs}`);
      // The constructor creates upstream's core tables (sync_*), as it does for every host.
      const storage = await upstreamCall(() => new this.upstream.SqliteServerStorage(db));
      return {
        backend: 'sqlite',
        serialize: atOnce,
        storage,
        query: async (sql, params) => db.native.query(sql).all(...(params as never[])),
        compiled: undefined,
        serverSchema: undefined,
        transactions: new Map(),
        close: async () => db.close(),
      };
    } catch (error) {
      db.close();
      throw error;
    }
  }

  async #openD1(path: string, lockWaitMs: number): Promise<OpenStorage> {
    const coordinator = new Coordinator(path, this.coordinatorSerializes);
    // Host wiring: a Worker hands the storage its D1 binding; the busy timeout is for the
    // harness, which reads the same file while the storage writes it.
    const db = new D1DatabaseOverSqlite(path, lockWaitMs);
    try {
      // What upstream's Workers host asserts from inside its per-partition Durable Object.
      const storage = new this.upstream.D1ServerStorage(db, { pushApplySerialized: true });
      // The schema DDL a host applies once before use (d1-storage.ts `migrate`).
      await upstreamCall(() => storage.migrate());
      return {
        backend: 'sqlite',
        serialize: (partition, work) => coordinator.serialize(partition, work),
        storage,
        query: async (sql, params) => db.db.query(sql).all(...(params as never[])) as Record<string, unknown>[],
        compiled: undefined,
        serverSchema: undefined,
        transactions: new Map(),
        close: async () => {
          coordinator.close();
          db.close();
        },
      };
    } catch (error) {
      coordinator.close();
      db.close();
      throw error;
    }
  }

  async #openPostgres(dsn: string, schema: string, lockWaitMs: number): Promise<OpenStorage> {
    // Host wiring: every conninfo parameter (application_name included), the schema as the
    // search_path, and the lock wait as lock_timeout, all sent at connection start so every
    // pooled connection has them.
    const sql = connect({}, dsn, {
      search_path: `"${schema.replaceAll('"', '""')}"`,
      lock_timeout: `${lockWaitMs}ms`,
    });
    const exec = bunSqlExecutor(sql);
    const storage = new this.upstream.PostgresServerStorage(exec);
    return {
      backend: 'postgres',
      serialize: atOnce,
      storage,
      query: async (text, params) => (await exec.query(text, params)).rows,
      compiled: undefined,
      serverSchema: undefined,
      transactions: new Map(),
      close: () => exec.close(),
    };
  }

  /** Closes a storage: rolls back its open transactions, then releases its connections. */
  async close(params: Params): Promise<void> {
    const entry = this.get(params);
    this.#open.delete(integer(params, 'storage'));
    for (const tx of entry.transactions.values()) {
      try {
        await tx.rollback();
      } catch {
        // the connection is closed next anyway
      }
    }
    entry.transactions.clear();
    await entry.close();
  }
}
