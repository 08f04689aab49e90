/**
 * The two reads upstream's `ServerStorage` has no method for, made by SQL on upstream's own
 * tables (capability `upstreamTables`), on the storage's own connection:
 * - storage.read_projection: the materialized columns of one row of a relational row table
 *   (relational-rows.ts `tableColumnNames`), as the database renders them;
 * - storage.read_commit_window: every change of every commit, in order. Upstream's
 *   `readCommitWindow` returns only one table's changes matching a scope filter, and its
 *   `StoredCommit` lacks clientId / clientCommitId, so it cannot answer this.
 * Columns are converted as upstream's readers convert them: sqlite-dialect.ts
 * `toStoredChange` on SQLite; `asNumber` / `asBytes` of pg-executor.ts and the `asJson` rule of
 * postgres-storage.ts (a string is parsed, anything else kept) on PostgreSQL.
 */
import { invalidResult } from './errors';
import { type Column, valueToWire } from './row-values';
import { changeToWire } from './stored';
import type { OpenStorage } from './storages';
import type { Upstream } from './upstream';
import type { Params } from './wire';

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Projection values of one row, or null when the row is absent. */
export async function readProjection(
  entry: OpenStorage,
  table: { name: string; columns: readonly Column[] },
  partition: string,
  rowId: string,
): Promise<unknown[] | null> {
  const pg = entry.backend === 'postgres';
  // On PostgreSQL json columns are JSONB: `::text` is the database's own rendering (Bun.SQL
  // would hand back a parsed object).
  const select = table.columns
    .map((c, i) => `${quote(c.name)}${pg && c.type === 'json' ? '::text' : ''} AS c${i}`)
    .join(', ');
  const where = pg ? '"_sync_partition"=$1 AND "_sync_row_id"=$2' : '"_sync_partition"=? AND "_sync_row_id"=?';
  const rows = await entry.query(`SELECT ${select} FROM ${quote(table.name)} WHERE ${where}`, [partition, rowId]);
  const row = rows[0];
  if (row === undefined) return null;
  return table.columns.map((column, i) => {
    let value = row[`c${i}`];
    // SQLite keeps booleans as INTEGER 0/1 (relational-rows.ts columnSqlType).
    if (column.type === 'boolean' && (value === 0 || value === 1 || value === 0n || value === 1n)) value = Number(value) === 1;
    if (typeof value === 'bigint' && Number.isSafeInteger(Number(value))) value = Number(value);
    // Bun.SQL may hand BIGINT back as text; the database holds an integer.
    if (pg && column.type === 'integer' && typeof value === 'string' && /^-?\d+$/.test(value)) value = Number(value);
    if (value instanceof Uint8Array && !(column.type === 'bytes' || column.type === 'crdt')) {
      throw invalidResult(`column ${column.name} holds bytes`, value);
    }
    if (column.type === 'float' && typeof value === 'number') return valueToWire(column, value);
    if (typeof value === 'number' && column.type !== 'integer' && column.type !== 'float') {
      throw invalidResult(`column ${column.name} (${column.type}) holds a number`, value);
    }
    // An integer column holding a REAL, a text column holding a number …: as the database has it.
    if (typeof value === 'number' && !Number.isInteger(value)) return valueToWire({ ...column, type: 'float' }, value);
    return value instanceof Uint8Array ? valueToWire({ ...column, type: 'bytes' }, value) : value;
  });
}

/** Commits with seq above `afterSeq`, oldest first, at most `limit`, every change in order. */
export async function readCommitWindow(
  entry: OpenStorage,
  upstream: Upstream,
  partition: string,
  afterSeq: number,
  limit: number,
): Promise<Params[]> {
  const pg = entry.backend === 'postgres';
  const p = pg ? ['$1', '$2', '$3'] : ['?', '?', '?'];
  const commits = await entry.query(
    `SELECT commit_seq, client_id, client_commit_id, actor_id, created_at_ms FROM sync_commits
      WHERE partition=${p[0]} AND commit_seq>${p[1]} ORDER BY commit_seq LIMIT ${p[2]}`,
    [partition, afterSeq, limit],
  );
  if (commits.length === 0) return [];
  const num = (v: unknown) => (pg ? upstream.asNumber(v) : typeof v === 'bigint' ? Number(v) : v);
  const last = num(commits[commits.length - 1]?.commit_seq);
  const changes = await entry.query(
    `SELECT commit_seq, tbl, row_id, op, row_version, scopes, payload FROM sync_changes
      WHERE partition=${p[0]} AND commit_seq>${p[1]} AND commit_seq<=${p[2]} ORDER BY commit_seq, idx`,
    [partition, afterSeq, last],
  );
  const bySeq = new Map<number, Params[]>();
  for (const record of changes) {
    const change = pg ? postgresChange(upstream, record) : upstream.toStoredChange(record);
    const seq = num(record.commit_seq) as number;
    bySeq.set(seq, [...(bySeq.get(seq) ?? []), changeToWire(change)]);
  }
  return commits.map((c) => {
    const seq = num(c.commit_seq) as number;
    return {
      commitSeq: seq,
      clientId: c.client_id,
      clientCommitId: c.client_commit_id,
      actorId: c.actor_id,
      createdAtMs: num(c.created_at_ms),
      changes: bySeq.get(seq) ?? [],
    };
  });
}

/** postgres-storage.ts `toStoredChange` (module-private there), field for field. */
function postgresChange(upstream: Upstream, record: Params): Params {
  const scopes = typeof record.scopes === 'string' ? JSON.parse(record.scopes) : record.scopes;
  return {
    table: record.tbl,
    rowId: record.row_id,
    op: upstream.asNumber(record.op) === 1 ? 'upsert' : 'delete',
    ...(record.row_version !== null && record.row_version !== undefined ? { rowVersion: upstream.asNumber(record.row_version) } : {}),
    scopes,
    ...(record.payload !== null && record.payload !== undefined ? { payload: upstream.asBytes(record.payload) } : {}),
  };
}
