/**
 * The upstream modules the driver serves, loaded from the tree named on the command line
 * (`--server-src`): the checkout's packages/server/src for 0.21, or the 0.22 tree that
 * scripts/syncular-setup builds. Nothing of upstream is copied into this directory.
 */
import { join } from 'node:path';

export interface UpstreamSegments {
  /** segment-store.ts */
  MemorySegmentStore: new (options?: { ttlMs?: number }) => SegmentStoreLike;
  /** sqlite-segment-store.ts */
  SqliteSegmentStore: new (db: SqliteDatabaseLike, options?: { ttlMs?: number }) => SegmentStoreLike;
  /** sqlite-bun-driver.ts */
  BunSqliteDatabase: new (path: string) => SqliteDatabaseLike;
}

export interface SqliteDatabaseLike {
  exec(sql: string): void;
  close(): void;
}

// The shapes the driver reads; the record type differs between 0.21 and 0.22.
export type UpstreamRecord = Record<string, unknown>;

export interface SegmentStoreLike {
  put(metadata: Record<string, unknown>, bytes: Uint8Array, nowMs: number): Promise<UpstreamRecord>;
  get(segmentId: string): Promise<{ record: UpstreamRecord; bytes: Uint8Array } | undefined>;
  find(key: Record<string, unknown>, nowMs: number): Promise<UpstreamRecord | undefined>;
  stats?(): Promise<{ count: number; bytes: number; rowsSegments: number; sqliteSegments: number }>;
}

export async function loadSegments(serverSrc: string): Promise<UpstreamSegments> {
  const [memory, sqlite, driver] = await Promise.all([
    import(join(serverSrc, 'segment-store.ts')),
    import(join(serverSrc, 'sqlite-segment-store.ts')),
    import(join(serverSrc, 'sqlite-bun-driver.ts')),
  ]);
  return {
    MemorySegmentStore: memory.MemorySegmentStore,
    SqliteSegmentStore: sqlite.SqliteSegmentStore,
    BunSqliteDatabase: driver.BunSqliteDatabase,
  };
}

/**
 * Upstream's server storage, push pipeline and row codec, from the same tree. `@syncular/core`
 * is resolved from `--server-src` as upstream's own modules resolve it, so the classes the
 * driver tests with `instanceof` (DecodeError, SyncError, …) are the ones upstream throws.
 * Typed loosely: the driver passes upstream's objects through and reads documented fields.
 */
// biome-ignore lint/suspicious/noExplicitAny: upstream's modules are loaded at run time
export type Upstream = Record<string, any>;

export async function loadServer(serverSrc: string): Promise<Upstream> {
  const core = await import(Bun.resolveSync('@syncular/core', serverSrc));
  const modules = await Promise.all(
    [
      'sqlite-storage.ts', 'sqlite-bun-driver.ts', 'postgres-storage.ts', 'schema.ts', 'push.ts',
      'validate.ts', 'errors.ts', 'storage-errors.ts', 'operations.ts', 'relational-rows.ts',
      'sqlite-dialect.ts', 'pg-executor.ts', 'context.ts', 'scopes.ts', 'd1-storage.ts',
    ].map((file) => import(join(serverSrc, file))),
  );
  return Object.assign({ core }, ...modules);
}
